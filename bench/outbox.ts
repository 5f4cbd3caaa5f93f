import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { count } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { outboxEntry } from '../src/db/outbox-entry';
import { send, sourceText, type Transport } from '../src/api/send';
import { categories } from '../src/contract/resources/catalogs';
import { uuidv7 } from '../src/contract/uuid';
import { db } from '../src/db/database';
import { enqueue } from '../src/db/outbox';
import { drain, type Send } from '../src/db/outbox-drain';
import { buildApp } from '../src/server/app';
import { openStore } from '../src/server/store/open';
import { categories as categoriesTable } from '../src/server/store/schema';
import { memoryMailer, testAppConfig } from '../tests/support/app';
import { tokenFor } from '../tests/support/auth';
import { createPgDatabase } from '../tests/support/store';
import { seedUser } from '../tests/support/users';

export interface OutboxBenchResult {
  mutations: number;
  enqueueMs: number;
  replayMs: number;
  /** The floor: the same creates sent one after another straight to the server, no outbox. */
  directMs: number;
  onServer: number;
  leftInOutbox: number;
}

/**
 * 1,000 creates queued while offline, then replayed by the outbox's drain — the code the service
 * worker runs — against the real server on PostgreSQL (IndexedDB is fake-indexeddb here).
 */
export async function benchOutbox(mutations = 1000): Promise<OutboxBenchResult> {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  const database = await createPgDatabase();
  const store = await openStore({ kind: 'postgres', url: database.url }, async () => {});
  const app = await buildApp({
    config: testAppConfig(),
    store,
    mailer: memoryMailer(),
    logger: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await seedUser(store, { type: 'admin', email: 'bench@example.test', username: 'bench', password: 'bench-password' });
    const transport: Transport = {
      base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      token: await tokenFor(store, admin.id),
      language: 'en',
      translate: sourceText,
    };
    const workerSend: Send = async (call) => (await send(call.path, call, transport)).envelope;

    let started = performance.now();
    for (let i = 0; i < mutations; i++) {
      await enqueue(outboxEntry(categories, { kind: 'create', id: uuidv7(), values: { name: `Queued ${i}`, description: '' } }, `Queued ${i}`));
    }
    const enqueueMs = performance.now() - started;

    started = performance.now();
    await drain(workerSend);
    const replayMs = performance.now() - started;

    started = performance.now();
    for (let i = 0; i < mutations; i++) {
      await send(categories.paths.list!, { method: 'POST', body: { _id: uuidv7(), name: `Direct ${i}` }, headers: { 'Idempotency-Key': uuidv7() }, fallback: '' }, transport);
    }
    const directMs = performance.now() - started;

    const [row] = await store.db.select({ n: count() }).from(categoriesTable);
    return { mutations, enqueueMs, replayMs, directMs, onServer: (row?.n ?? 0) - mutations, leftInOutbox: await db.outbox.count() };
  } finally {
    await app.close();
    await database.drop();
  }
}
