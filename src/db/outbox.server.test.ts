// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { tokenFor } from '../../tests/support/auth';
import { png } from '../../tests/support/uploads';
import { seedUser, seedWebsite } from '../../tests/support/users';
import { outboxEntry } from './outbox-entry';
import { actionPath } from '../api/action';
import { send, sourceText, type Transport } from '../api/send';
import { orderTag } from '../contract/order';
import { boundTo, type Resource } from '../contract/resource';
import { categories, subcategories } from '../contract/resources/catalogs';
import { cleanupAllergens, gastroItems, gastroMenus } from '../contract/resources/gastro';
import { uuidv7 } from '../contract/uuid';
import { REPLAY_HEADER } from '../server/http/idempotency';
import { categories as categoryRows } from '../server/store/schema';
import { clearLocalData, db } from './database';
import { enqueue, enqueueAction, enqueueUpload, entityKey } from './outbox';
import { keepMine } from './outbox-conflicts';
import { drain, type Send } from './outbox-drain';
import { enqueueReorder } from './outbox-reorder';
import { BACKOFF_MS, LOST_BACKOFF_MS, MAX_ATTEMPTS } from './outbox-verdict';
import type { Mutation } from './resource-store';

/**
 * The outbox against the real server over HTTP, replayed the way the service worker does it
 * (api/send.ts with a transport from Dexie's meta, no localStorage): the wire of DESIGN §4 end to end.
 */
let test: Awaited<ReturnType<typeof createTestApp>>;
let transport: Transport;
let serial = 0;
/** Entities whose every request fails inside the server (its own 500 answer). */
const poisoned = new Set<string>();
/** Every answer the server gave to a change: whether it acted (an answer of its own) or replayed a stored one. */
const answers: { method: string; url: string; status: number; key: string | undefined; replayed: boolean }[] = [];

const workerSend =
  (over: Partial<Transport> = {}): Send =>
  async (call) =>
    (await send(call.path, { method: call.method, body: call.body, headers: call.headers, fallback: call.fallback }, { ...transport, ...over })).envelope;

/** The server commits, the answer never arrives (the first `times` answers): the device sees no connection. */
const answerLost = (times: number) =>
  workerSend({
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (times-- <= 0) return response;
      await response.text();
      throw new TypeError('Failed to fetch');
    },
  });

function queue(resource: Resource, mutation: Mutation, dependsOn?: string[]) {
  return enqueue({ ...outboxEntry(resource, mutation, ''), dependsOn });
}

async function onServer(id: string, resource: Resource = categories) {
  const response = await test.app.inject({ method: 'GET', url: `/api/${resource.name}/${id}`, headers: { authorization: `Bearer ${transport.token}` } });
  return response.statusCode === 200 ? (response.json().data as Record<string, unknown>) : null;
}

async function changeOnServer(id: string, version: number, values: Record<string, unknown>) {
  const response = await test.app.inject({
    method: 'PUT',
    url: `/api/categories/${id}`,
    headers: { authorization: `Bearer ${transport.token}`, 'if-match': `"${version}"`, 'idempotency-key': uuidv7() },
    payload: values,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Record<string, unknown>;
}

const name = () => `Category ${++serial} ${Date.now()}`;

beforeAll(async () => {
  test = await createTestApp();
  const admin = await seedUser(test.store, { type: 'admin', email: 'admin@example.test', username: 'admin', password: 'unused password' });
  test.app.addHook('preHandler', async (request) => {
    const id = request.url.split('/').at(-1)!;
    if (poisoned.has(id)) throw new Error(`poisoned: ${id}`);
  });
  test.app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET') return;
    const key = request.headers['idempotency-key'];
    answers.push({ method: request.method, url: request.url, status: reply.statusCode, key: typeof key === 'string' ? key : undefined, replayed: reply.getHeader(REPLAY_HEADER) === 'true' });
  });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = test.app.server.address() as AddressInfo;
  transport = { base: `http://127.0.0.1:${port}`, token: await tokenFor(test.store, admin.id), language: 'en', translate: sourceText };
}, 60_000);

afterAll(() => test.app.close());

beforeEach(async () => {
  await clearLocalData();
});

afterEach(() => {
  poisoned.clear();
  answers.length = 0;
  vi.useRealTimers();
});

describe('the outbox against the server', () => {
  it('an entity created and edited offline reaches the server in order, at the version the edits imply', async () => {
    const id = uuidv7();
    const title = name();
    await queue(categories, { kind: 'create', id, values: { name: title, description: '' } });
    await queue(categories, { kind: 'update', id, values: { description: 'First' }, baseVersion: 1 });
    await queue(categories, { kind: 'update', id, values: { name: `${title}!` }, baseVersion: 1 });

    expect(await drain(workerSend())).toMatchObject({ sent: 3, stopped: null });

    expect(await onServer(id)).toMatchObject({ _id: id, name: `${title}!`, description: 'First', version: 3 });
    expect(await db.outbox.count()).toBe(0);
    expect((await db.records.get(['categories', id]))?.row).toMatchObject({ version: 3 });
  });

  it('a change to a version someone else replaced becomes a conflict with their row; keep mine sends it on top', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await drain(workerSend());
    await changeOnServer(id, 1, { description: 'Theirs' });

    const seq = await queue(categories, { kind: 'update', id, values: { name: 'Mine' }, baseVersion: 1 });
    await drain(workerSend());

    const conflicted = await db.outbox.get(seq!);
    expect(conflicted).toMatchObject({ status: 'conflict', current: { _id: id, version: 2, description: 'Theirs' } });
    expect(conflicted?.error?.message).toBeTruthy();

    await keepMine(seq!);
    await drain(workerSend());
    expect(await onServer(id)).toMatchObject({ name: 'Mine', description: 'Theirs', version: 3 });
  });

  it('a refused change keeps the server’s message and field errors', async () => {
    const taken = name();
    await queue(categories, { kind: 'create', id: uuidv7(), values: { name: taken, description: '' } });
    await drain(workerSend());

    const seq = await queue(categories, { kind: 'create', id: uuidv7(), values: { name: taken, description: '' } });
    await drain(workerSend({ language: 'de' }));

    const failed = await db.outbox.get(seq!);
    expect(failed?.status).toBe('failed');
    expect(failed?.error?.status).toBe(400);
    expect(failed?.error?.errors.map((error) => error.path)).toEqual(['body.name']);
  });

  it('a change whose answer was lost is sent again at once and answered from the server’s record, not done twice', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await drain(workerSend());
    await queue(categories, { kind: 'update', id, values: { description: 'Once' }, baseVersion: 1 });
    answers.length = 0;

    // The server commits, the answer never arrives.
    expect(await drain(answerLost(1))).toMatchObject({ sent: 1, stopped: null });

    expect(answers.map((answer) => [answer.status, answer.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(await onServer(id)).toMatchObject({ description: 'Once', version: 2 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('a queued action (a declared call beyond CRUD) is sent with its own key, once, even when its answer was lost', async () => {
    const owner = await seedUser(test.store, { type: 'user', email: `owner-${++serial}@example.test`, username: `owner-${serial}`, password: 'unused password' });
    const website = await seedWebsite(test.store, { ownerId: owner.id });
    const key = uuidv7();
    const path = actionPath(cleanupAllergens, { params: { websiteId: website.id } });
    await enqueueAction({ resource: `action:${cleanupAllergens.name}`, entityId: key, idempotencyKey: key, method: 'POST', path, label: { item: 'Clean up allergens', title: '' }, fallback: 'Failed' });

    expect(await drain(answerLost(1))).toMatchObject({ sent: 1, stopped: null });

    expect(answers.map((answer) => [answer.url, answer.key, answer.status, answer.replayed])).toEqual([
      [path, key, 200, false],
      [path, key, 200, true],
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a change that got no answer twice waits a moment on its own, and is then answered from the server’s record', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await drain(workerSend());
    await queue(categories, { kind: 'update', id, values: { description: 'Once' }, baseVersion: 1 });
    const other = uuidv7();
    await queue(categories, { kind: 'create', id: other, values: { name: name(), description: '' } });

    // Both answers to the update lost; the create after it is answered.
    expect(await drain(answerLost(2))).toMatchObject({ sent: 1, stopped: null, retryAt: Date.now() + LOST_BACKOFF_MS[0] });
    expect(await onServer(other)).toMatchObject({ version: 1 });

    vi.setSystemTime(Date.now() + LOST_BACKOFF_MS[0]);
    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null, retryAt: null });
    expect(await onServer(id)).toMatchObject({ description: 'Once', version: 2 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('an upload whose answer was lost is sent again as multipart and answered from the server’s record, not stored twice', async () => {
    const headers = { authorization: `Bearer ${transport.token}` };
    const before = (await test.app.inject({ method: 'GET', url: '/api/settings', headers })).json().data;
    await enqueueUpload({
      resource: 'settings',
      entityId: '/api/settings/logo',
      path: '/api/settings/logo',
      file: { field: 'file', blob: new Blob([new Uint8Array(await png())], { type: 'image/png' }), name: 'logo.png' },
      label: { item: 'logo', title: '' },
      fallback: 'Upload failed',
    });

    expect(await drain(answerLost(1))).toMatchObject({ sent: 1, stopped: null });
    expect(answers.filter((answer) => answer.url === '/api/settings/logo').map((answer) => [answer.status, answer.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
    const after = (await test.app.inject({ method: 'GET', url: '/api/settings', headers })).json().data;
    expect(after.version).toBe(before.version + 1);
    expect(after.cmsLogoUrl).toMatch(/\.webp$/);
    expect((await db.records.get(['settings', after._id]))?.row).toMatchObject({ version: after.version, cmsLogoUrl: after.cmsLogoUrl });
    expect([await db.outbox.count(), await db.files.count()]).toEqual([0, 0]);
  });

  it('a delete with the version it saw removes the entity', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await queue(categories, { kind: 'delete', id, baseVersion: 1 });

    expect(await drain(workerSend())).toMatchObject({ sent: 2 });
    expect(await onServer(id)).toBeNull();
  });
});

/** What a hotel's Wi-Fi answers to anything before its terms are accepted. */
const captivePortal: typeof fetch = async () =>
  new Response('<!doctype html><title>Sign in to the hotel Wi-Fi</title>', { status: 200, headers: { 'content-type': 'text/html' } });

describe('the outbox when things go wrong', () => {
  it('an entity the server keeps failing backs off alone while another entity’s create reaches the server, and fails after MAX_ATTEMPTS answers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const broken = uuidv7();
    await queue(categories, { kind: 'create', id: broken, values: { name: name(), description: '' } });
    await drain(workerSend());
    poisoned.add(broken);
    const seq = await queue(categories, { kind: 'update', id: broken, values: { description: 'Never' }, baseVersion: 1 });
    const fine = uuidv7();
    await queue(categories, { kind: 'create', id: fine, values: { name: name(), description: '' } });

    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null, retryAt: Date.now() + BACKOFF_MS[0] });
    expect(await onServer(fine)).toMatchObject({ _id: fine, version: 1 });
    expect(await db.outbox.get(seq!)).toMatchObject({ status: 'pending', attempts: 1 });

    for (const wait of BACKOFF_MS) {
      vi.setSystemTime(Date.now() + wait);
      await drain(workerSend());
    }

    const failed = await db.outbox.get(seq!);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, error: { status: 500 } });
    expect(failed?.error?.message).toBeTruthy();
    poisoned.clear();
    expect(await onServer(broken)).toMatchObject({ description: '', version: 1 });
  });

  it('a captive portal’s login page (200, text/html) is no answer: the drain stops as offline, everything stays as it was, nothing fails', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await queue(categories, { kind: 'update', id, values: { description: 'Later' }, baseVersion: 1 });
    const others = [uuidv7(), uuidv7(), uuidv7()];
    for (const other of others) await queue(categories, { kind: 'create', id: other, values: { name: name(), description: '' } });

    expect(await drain(workerSend({ fetch: captivePortal }))).toMatchObject({ sent: 0, stopped: 'offline' });

    expect((await db.outbox.toArray()).map((entry) => [entry.status, entry.attempts, entry.lost, entry.retryAt, entry.error])).toEqual(
      Array.from({ length: 5 }, () => ['pending', 0, undefined, undefined, undefined]),
    );
    expect(await drain(workerSend())).toMatchObject({ sent: 5, stopped: null });
    expect(await onServer(id)).toMatchObject({ description: 'Later', version: 2 });
  });

  it('a subcategory queued before its category’s create is sent after it', async () => {
    const category = uuidv7();
    const child = uuidv7();
    await queue(subcategories, { kind: 'create', id: child, values: { name: name(), description: '', categoryId: category } }, [entityKey('categories', category)]);
    await queue(categories, { kind: 'create', id: category, values: { name: name(), description: '' } });

    expect(await drain(workerSend())).toMatchObject({ sent: 2, stopped: null });
    expect(await onServer(child, subcategories)).toMatchObject({ categoryId: category });
  });

  it('a subcategory whose category the server refuses fails with it, never sent', async () => {
    const taken = name();
    await queue(categories, { kind: 'create', id: uuidv7(), values: { name: taken, description: '' } });
    await drain(workerSend());
    const category = uuidv7();
    const child = uuidv7();
    await queue(categories, { kind: 'create', id: category, values: { name: taken, description: '' } });
    const seq = await queue(subcategories, { kind: 'create', id: child, values: { name: name(), description: '', categoryId: category } }, [entityKey('categories', category)]);

    await drain(workerSend());

    expect((await db.outbox.toArray()).map((entry) => [entry.resource, entry.status, entry.error?.status])).toEqual([
      ['categories', 'failed', 400],
      ['subcategories', 'failed', 424],
    ]);
    expect((await db.outbox.get(seq!))?.error?.reason).toBe('parentNotSaved');
    expect(await onServer(child, subcategories)).toBeNull();
  });
});

/** A proxy's page for a server it could not reach, or gave up waiting for: HTML, not our API's JSON. */
const badGateway = () => new Response('<html><body><center><h1>502 Bad Gateway</h1></center></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });

/** Numbers that look random and are the same on every run (mulberry32), so every run meets the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A phone on a bad connection behind a proxy: 10 % of answers are lost after the server committed,
 * 1 % are the proxy's 502 page after the server committed (it gave up waiting) and 1 % its 502 page
 * without the server ever seeing the request.
 */
function badConnection(seed: number) {
  const random = seeded(seed);
  const faults = { requests: 0, lost: 0, gateway: 0 };
  const through: typeof fetch = async (input, init) => {
    faults.requests += 1;
    const roll = random();
    if (roll < 0.01) {
      faults.gateway += 1;
      return badGateway();
    }
    const response = await fetch(input, init);
    if (roll >= 0.12) return response;
    await response.text();
    if (roll < 0.02) {
      faults.gateway += 1;
      return badGateway();
    }
    faults.lost += 1;
    throw new TypeError('Failed to fetch');
  };
  return { send: workerSend({ fetch: through }), faults };
}

/**
 * 300 changes on the server's categories, 100 each of creates, updates and deletes, replayed the way
 * the page does it untouched: a drain, and the next one when the drain says an entity is due (Date
 * is faked, so waiting is moving the clock). Returns how many drains it took and how long it waited.
 */
async function replayChanges(replay: Send, tag: string) {
  const made = await test.store.db
    .insert(categoryRows)
    .values(Array.from({ length: 200 }, (_, index) => ({ name: `${tag} kept ${index}` })))
    .returning({ id: categoryRows.id });
  const [updated, deleted] = [made.slice(0, 100).map((row) => row.id), made.slice(100).map((row) => row.id)];
  const created = Array.from({ length: 100 }, () => uuidv7());
  for (let index = 0; index < 100; index++) {
    await queue(categories, { kind: 'create', id: created[index]!, values: { name: `${tag} new ${index}`, description: '' } });
    await queue(categories, { kind: 'update', id: updated[index]!, values: { description: 'Changed once' }, baseVersion: 1 });
    await queue(categories, { kind: 'delete', id: deleted[index]!, baseVersion: 1 });
  }
  const keys = new Set((await db.outbox.toArray()).map((entry) => entry.idempotencyKey));
  answers.length = 0;

  let [drains, waited] = [0, 0];
  const started = performance.now();
  for (;;) {
    const result = await drain(replay);
    drains += 1;
    expect(result.stopped, `drain ${drains}`).toBeNull();
    if (result.retryAt === null || drains === 20) break;
    waited += result.retryAt - Date.now();
    vi.setSystemTime(result.retryAt);
  }
  const ms = performance.now() - started;

  expect(await db.outbox.count()).toBe(0);
  // Every change was made exactly once: one answer of the server's own per key, every other one replayed.
  const acted = answers.filter((answer) => !answer.replayed);
  expect(acted.map((answer) => answer.key).toSorted()).toEqual([...keys].toSorted());
  expect(acted.every((answer) => answer.status < 300)).toBe(true);
  expect(await Promise.all(created.map((id) => onServer(id)))).toEqual(created.map((id) => expect.objectContaining({ _id: id, version: 1 })));
  expect(await Promise.all(updated.map((id) => onServer(id)))).toEqual(updated.map(() => expect.objectContaining({ description: 'Changed once', version: 2 })));
  expect(await Promise.all(deleted.map((id) => onServer(id)))).toEqual(deleted.map(() => null));
  return { drains, waited, ms, requests: answers.length };
}

describe('the outbox on a bad connection', () => {
  it('300 changes, 10 % of their answers lost after the server committed and some a proxy’s 502 page, arrive once each, without a conflict or a failure, in about the drains and time of a clean replay', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const clean = await replayChanges(workerSend(), 'Clean');
    const bad = badConnection(18);
    const lossy = await replayChanges(bad.send, 'Lossy');

    // The connection really was that bad (seeded: 37 answers lost, 4 proxy pages).
    expect(bad.faults.lost).toBeGreaterThanOrEqual(25);
    expect(bad.faults.gateway).toBeGreaterThanOrEqual(3);
    expect(clean).toMatchObject({ drains: 1, waited: 0, requests: 300 });
    // Each lost answer costs its one request again, at once; the few sent twice in vain wait a second or two.
    expect(lossy.drains).toBeLessThanOrEqual(clean.drains + 2);
    expect(lossy.waited).toBeLessThanOrEqual(5_000);
    expect(bad.faults.requests).toBeLessThanOrEqual(300 * 1.2);
  }, 120_000);
});

describe('a reorder against the server', () => {
  it('made after deleting a dish whose delete backs off, waits for it; keep mine after a real conflict is taken on its first send', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const owner = await seedUser(test.store, { type: 'user', email: `owner-${serial}@example.test`, username: `owner-${++serial}`, password: 'unused password' });
    const website = await seedWebsite(test.store, { ownerId: owner.id });
    const menuId = uuidv7();
    const menus = boundTo(gastroMenus, { websiteId: website.id });
    const items = boundTo(gastroItems, { menuId });
    await queue(menus, { kind: 'create', id: menuId, values: { name: 'Lunch', description: '', status: 'draft', language: 'de' } });
    const dishes = ['Soup', 'Steak', 'Cake', 'Coffee'].map((dish) => ({ id: uuidv7(), dish }));
    for (const { id, dish } of dishes) {
      await queue(items, { kind: 'create', id, values: { name: dish, description: '', price: 500, currency: 'EUR', categoryId: null, allergenIds: [], available: true, mediaId: null } });
    }
    expect(await drain(workerSend())).toMatchObject({ sent: 5, stopped: null });
    const [soup, steak, cake, coffee] = dishes.map(({ id }) => id) as [string, string, string, string];
    const orderPath = items.order!.path;
    const headers = { authorization: `Bearer ${transport.token}`, 'idempotency-key': uuidv7() };

    // Someone else puts the coffee first.
    const theirs = await test.app.inject({ method: 'PUT', url: orderPath, headers: { ...headers, 'if-match': `"${orderTag([soup, steak, cake, coffee])}"` }, payload: { items: [coffee, soup, steak, cake] } });
    expect(theirs.statusCode, theirs.body).toBe(200);
    answers.length = 0;
    // Here, the steak is deleted (the server fails it once) and then the cake moved up, on the list without the steak.
    poisoned.add(steak);
    await queue(items, { kind: 'delete', id: steak, baseVersion: 1 });
    const seq = await enqueueReorder({ resource: items.name, scope: items.boundKey, parentId: items.boundKey, ids: [cake, soup, coffee], base: orderTag([soup, cake, coffee]), path: orderPath, field: 'items', label: { item: 'dishes', title: '' }, fallback: 'Failed to reorder the menu entries' });
    const reorders = () => answers.filter((answer) => answer.url === orderPath).map((answer) => answer.status);

    await drain(workerSend());
    expect(reorders()).toEqual([]);
    poisoned.clear();
    vi.setSystemTime(Date.now() + BACKOFF_MS[0]);
    await drain(workerSend());
    // Sent after the delete, on the order the server then has: what it meets is the other person's move.
    expect(reorders()).toEqual([409]);
    expect(await db.outbox.get(seq)).toMatchObject({ status: 'conflict', currentOrder: [coffee, soup, cake] });

    await keepMine(seq);
    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null });
    expect(reorders()).toEqual([409, 200]);
    const listed = await test.app.inject({ method: 'GET', url: items.paths.list!, headers });
    expect(listed.json().data.map((row: { _id: string }) => row._id)).toEqual([cake, soup, coffee]);
    expect(await db.outbox.count()).toBe(0);
  });
});
