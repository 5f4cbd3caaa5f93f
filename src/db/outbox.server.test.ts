// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { tokenFor } from '../../tests/support/auth';
import { png } from '../../tests/support/uploads';
import { seedUser } from '../../tests/support/users';
import { outboxEntry } from '../api/mutations';
import { send, sourceText, type Transport } from '../api/send';
import type { Resource } from '../contract/resource';
import { categories, subcategories } from '../contract/resources/catalogs';
import { uuidv7 } from '../contract/uuid';
import { clearLocalData, db } from './database';
import { BACKOFF_MS, drain, enqueue, enqueueUpload, entityKey, keepMine, MAX_ATTEMPTS, type Send } from './outbox';
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

const workerSend =
  (over: Partial<Transport> = {}): Send =>
  async (call) =>
    (await send(call.path, { method: call.method, body: call.body, headers: call.headers, fallback: call.fallback }, { ...transport, ...over })).envelope;

/** The server commits, the answer never arrives: the device sees no connection. */
const answerLost = () =>
  workerSend({
    fetch: async (input, init) => {
      await fetch(input, init);
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

  it('a change whose answer was lost is sent again and answered from the server’s record, not done twice', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await drain(workerSend());
    await queue(categories, { kind: 'update', id, values: { description: 'Once' }, baseVersion: 1 });

    // The server commits, the answer never arrives.
    const lost = await drain(answerLost());
    expect(lost.stopped).toBe('offline');
    expect(await onServer(id)).toMatchObject({ version: 2 });

    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null });
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

    const lost = await drain(answerLost());
    expect(lost.stopped).toBe('offline');
    expect(await db.files.count()).toBe(1);

    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null });
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

  it('a captive portal’s login page (200, text/html) is no answer: everything stays pending, nothing fails', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await queue(categories, { kind: 'update', id, values: { description: 'Later' }, baseVersion: 1 });

    expect(await drain(workerSend({ fetch: captivePortal }))).toMatchObject({ sent: 0, stopped: 'offline' });

    expect((await db.outbox.toArray()).map((entry) => [entry.status, entry.attempts, entry.error])).toEqual([
      ['pending', 0, undefined],
      ['pending', 0, undefined],
    ]);
    expect(await drain(workerSend())).toMatchObject({ sent: 2, stopped: null });
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
