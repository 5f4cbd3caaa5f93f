import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/server/app';
import { openStore, type Store } from '../src/server/store/open';
import { memoryMailer, testAppConfig } from '../tests/support/app';
import { tokenFor } from '../tests/support/auth';
import { createPgDatabase } from '../tests/support/store';
import { seedUser, seedWebsite } from '../tests/support/users';

type Saved = { _id: string; version: number };

/**
 * The app listening on `store`, with an owner, their website, its lunch menu and one dish, and a
 * way to call the API over HTTP as that owner: what the history and live update benches change.
 */
export async function dishApp(store: Store) {
  const owner = await seedUser(store, { type: 'user', email: 'bench-owner@example.test', username: 'bench-owner', password: 'bench-password' });
  const website = await seedWebsite(store, { ownerId: owner.id, name: 'Bench trattoria' });
  const headers = { authorization: `Bearer ${await tokenFor(store, owner.id)}`, 'content-type': 'application/json' };
  const app = await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, body: object, version?: number): Promise<Saved> => {
    const res = await fetch(base + path, { method, headers: { ...headers, ...(version ? { 'if-match': `"${version}"` } : {}) }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: Saved }).data;
  };
  try {
    const menu = await call('POST', `/api/cms/gastro-menus/${website.id}`, { name: 'Lunch' });
    const dish = await call('POST', `/api/cms/gastro-menus/${menu._id}/items`, { name: 'Pizza Margherita', price: 890 });
    /** The dish's price changed from `version`: its new version. */
    const setPrice = async (price: number, version: number) => (await call('PUT', `/api/cms/gastro-menus/items/${dish._id}`, { price }, version)).version;
    return { app, base, headers, website, menu, dish, setPrice };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** A bench on PostgreSQL (a database of its own) and on the embedded PGlite, as `npm start` runs by default. */
export async function onBothStores<T>(measure: (store: Store) => Promise<T>): Promise<{ postgres: T; pglite: T }> {
  const database = await createPgDatabase();
  let postgres: T;
  try {
    postgres = await measure(await openStore({ kind: 'postgres', url: database.url }, async () => {}));
  } finally {
    await database.drop();
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'sk-bench-'));
  try {
    return { postgres, pglite: await measure(await openStore({ kind: 'pglite', dataDir }, async () => {})) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
