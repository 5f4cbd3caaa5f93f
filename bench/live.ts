import { createParser } from 'eventsource-parser';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS_PATH } from '../src/contract/live';
import { buildApp } from '../src/server/app';
import { openStore, type Store } from '../src/server/store/open';
import { memoryMailer, testAppConfig } from '../tests/support/app';
import { tokenFor } from '../tests/support/auth';
import { createPgDatabase } from '../tests/support/store';
import { seedUser, seedWebsite } from '../tests/support/users';

export interface LiveBenchResult {
  /** From sending a dish's new price to another device's stream telling of it: median and worst, ms. */
  p50: number;
  worst: number;
  /** The save's own answer on the saving device, median ms: the floor. */
  answerP50: number;
  changes: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Issue 21's live updates: one device changes a dish's price over HTTP, one save at a time; a second
 * device of the same owner holds the event stream. Each change is timed from the moment its request
 * leaves to the moment the other device has the event.
 */
async function measure(store: Store, changes: number): Promise<LiveBenchResult> {
  const owner = await seedUser(store, { type: 'user', email: 'live-owner@example.test', username: 'live-owner', password: 'bench-password' });
  const website = await seedWebsite(store, { ownerId: owner.id, name: 'Live trattoria' });
  const headers = { authorization: `Bearer ${await tokenFor(store, owner.id)}`, 'content-type': 'application/json' };
  const app = await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const stop = new AbortController();
  try {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const call = async (method: string, path: string, body: object, version?: number) => {
      const res = await fetch(base + path, { method, headers: { ...headers, ...(version ? { 'if-match': `"${version}"` } : {}) }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { _id: string; version: number } }).data;
    };
    const menu = await call('POST', `/api/cms/gastro-menus/${website.id}`, { name: 'Lunch' });
    const dish = await call('POST', `/api/cms/gastro-menus/${menu._id}/items`, { name: 'Pizza Margherita', price: 890 });

    const waiting = new Map<number, () => void>();
    const stream = await fetch(base + EVENTS_PATH, { headers: { ...headers, accept: 'text/event-stream' }, signal: stop.signal });
    const parser = createParser({
      onEvent: ({ data }) => {
        const change = JSON.parse(data) as { record?: string; version?: number };
        if (change.record === dish._id && change.version !== undefined) waiting.get(change.version)?.();
      },
    });
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    })().catch(() => {});

    let version = dish.version;
    const heard: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < changes + 10; i++) {
      const next = version + 1;
      const told = new Promise<void>((resolve) => waiting.set(next, resolve));
      const started = performance.now();
      version = (await call('PUT', `/api/cms/gastro-menus/items/${dish._id}`, { price: 900 + i }, version)).version;
      const answer = performance.now() - started;
      await told;
      waiting.delete(next);
      // The first ten warm the connection, the statements and the JIT.
      if (i >= 10) {
        heard.push(performance.now() - started);
        answered.push(answer);
      }
    }
    return { p50: median(heard), worst: Math.max(...heard), answerP50: median(answered), changes: heard.length };
  } finally {
    stop.abort();
    await app.close();
  }
}

/** On PostgreSQL (LISTEN/NOTIFY over a connection of its own) and on the embedded PGlite. */
export async function benchLive(changes = 100): Promise<{ postgres: LiveBenchResult; pglite: LiveBenchResult }> {
  const database = await createPgDatabase();
  let postgres: LiveBenchResult;
  try {
    postgres = await measure(await openStore({ kind: 'postgres', url: database.url }, async () => {}), changes);
  } finally {
    await database.drop();
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'sk-bench-live-'));
  try {
    return { postgres, pglite: await measure(await openStore({ kind: 'pglite', dataDir }, async () => {}), changes) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
