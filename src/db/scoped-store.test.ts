// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { bearer, tokenFor } from '../../tests/support/auth';
import { topics } from '../../tests/support/scoped-resources';
import { createScopedTables, topicsTable } from '../../tests/support/scoped-tables';
import { seedUser, seedWebsite } from '../../tests/support/users';
import { TOKEN_KEY } from '../api/storage';
import { boundTo, type Resource } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import { registerResource } from '../server/crud';
import { clearLocalData } from './database';
import { resourceStore as store } from './device-store';
import { requestSync } from './sync';

/**
 * A website-scoped resource through the page's whole data layer (api, Dexie cache, outbox, replay)
 * against the real server: one person's two websites, listed, edited and created on offline; each
 * website sees only its own pages and pending changes, and each change reaches its own website.
 */
let test: Awaited<ReturnType<typeof createTestApp>>;
let token = '';
const site = { A: '', B: '' };
const online = { value: true };
const names = (page: { items: readonly Record<string, unknown>[] } | null | undefined) => page?.items.map((row) => row.name).toSorted();
const query = { page: 1, limit: 10 };

beforeAll(async () => {
  test = await createTestApp();
  registerResource(test.app, { store: test.store, clock: () => new Date() }, topics, topicsTable);
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  await createScopedTables(test.store);
  const owner = await seedUser(test.store, { type: 'user', email: 'owner@example.test', username: 'owner', password: 'unused password' });
  site.A = (await seedWebsite(test.store, { ownerId: owner.id, name: 'A' })).id;
  site.B = (await seedWebsite(test.store, { ownerId: owner.id, name: 'B' })).id;
  token = await tokenFor(test.store, owner.id);
  for (const [websiteId, name] of [
    [site.A, 'Alpha'],
    [site.B, 'Beta'],
  ] as const) {
    const made = await test.app.inject({ method: 'POST', url: `/api/test/topics/${websiteId}`, headers: bearer(token), payload: { name } });
    expect(made.statusCode).toBe(201);
  }

  await clearLocalData();
}, 60_000);

// The client set-up lifts stubs after each test; the page's globals, against this server.
beforeEach(() => {
  const { port } = test.app.server.address() as AddressInfo;
  const stored = new Map([[TOKEN_KEY, token]]);
  vi.stubGlobal('localStorage', { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value) });
  vi.stubGlobal('navigator', {
    get onLine() {
      return online.value;
    },
  });
  vi.stubEnv('VITE_API_BASE', `http://127.0.0.1:${port}`);
  // Where the replay tells the screens to read again.
  vi.stubGlobal('window', new EventTarget());
});

afterAll(() => test.app.close());

async function onServer(websiteId: string) {
  const res = await test.app.inject({ url: `/api/test/topics/${websiteId}?limit=100`, headers: bearer(token) });
  return (res.json().data as { name: string }[]).map((row) => row.name).toSorted();
}

describe('a website-scoped resource on two websites', () => {
  let a: Resource;
  let b: Resource;

  it('fills each website into its paths and keeps each one’s pages apart', async () => {
    a = boundTo(topics, { websiteId: site.A });
    b = boundTo(topics, { websiteId: site.B });
    expect(a.paths.list).toBe(`/api/test/topics/${site.A}`);
    expect(() => boundTo(topics, {})).toThrow(/websiteId/);
    expect(names(await store.fetchList(a, query))).toEqual(['Alpha']);
    expect(names(await store.fetchList(b, query))).toEqual(['Beta']);
    expect(names((await store.cachedList(a, query))?.value)).toEqual(['Alpha']);
    expect(names((await store.cachedList(b, query))?.value)).toEqual(['Beta']);
  });

  it('shows a change made offline on its own website only, and sends it there', async () => {
    online.value = false;
    const created = uuidv7();
    expect(await store.submit(a, { kind: 'create', id: created, values: { name: 'Alpha offline' } })).toEqual({ status: 'queued' });
    const beta = (await store.cachedList(b, query))!.value.items[0]!;
    expect(await store.submit(b, { kind: 'update', id: beta.id, values: { name: 'Beta edited' }, baseVersion: beta.version })).toEqual({ status: 'queued' });

    const pageA = (await store.cachedList(a, query))!.value;
    const pageB = (await store.cachedList(b, query))!.value;
    expect(names(pageA)).toEqual(['Alpha', 'Alpha offline']);
    expect(pageA.items.find((row) => row.name === 'Alpha offline')?.pending).toBe(true);
    expect(names(pageB)).toEqual(['Beta edited']);

    online.value = true;
    expect(await requestSync()).toMatchObject({ sent: 2, stopped: null });
    expect(await onServer(site.A)).toEqual(['Alpha', 'Alpha offline']);
    expect(await onServer(site.B)).toEqual(['Beta edited']);
    // B's page, fetched before A's create reached the server, still does not show it.
    expect(names((await store.cachedList(b, query))?.value)).toEqual(['Beta edited']);
    expect(names((await store.cachedList(a, query))?.value)).toEqual(['Alpha', 'Alpha offline']);
  });
});
