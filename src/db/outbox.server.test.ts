// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { tokenFor } from '../../tests/support/auth';
import { seedUser } from '../../tests/support/users';
import { outboxEntry } from '../api/mutations';
import { send, sourceText, type Transport } from '../api/send';
import type { Resource } from '../contract/resource';
import { categories } from '../contract/resources/catalogs';
import { uuidv7 } from '../contract/uuid';
import { clearLocalData, db } from './database';
import { drain, enqueue, keepMine, type Send } from './outbox';
import type { Mutation } from './resource-store';

/**
 * The outbox against the real server over HTTP, replayed the way the service worker does it
 * (api/send.ts with a transport from Dexie's meta, no localStorage): the wire of DESIGN §4 end to end.
 */
let test: Awaited<ReturnType<typeof createTestApp>>;
let transport: Transport;
let serial = 0;

const workerSend =
  (over: Partial<Transport> = {}): Send =>
  async (call) =>
    (await send(call.path, { method: call.method, body: call.body, headers: call.headers, fallback: call.fallback }, { ...transport, ...over })).envelope;

function queue(resource: Resource, mutation: Mutation) {
  return enqueue(outboxEntry(resource, mutation, ''));
}

async function onServer(id: string) {
  const response = await test.app.inject({ method: 'GET', url: `/api/categories/${id}`, headers: { authorization: `Bearer ${transport.token}` } });
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
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = test.app.server.address() as AddressInfo;
  transport = { base: `http://127.0.0.1:${port}`, token: await tokenFor(test.store, admin.id), language: 'en', translate: sourceText };
}, 60_000);

afterAll(() => test.app.close());

beforeEach(async () => {
  await clearLocalData();
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
    const lost = await drain(
      workerSend({
        fetch: async (input, init) => {
          await fetch(input, init);
          throw new TypeError('Failed to fetch');
        },
      }),
    );
    expect(lost.stopped).toBe('offline');
    expect(await onServer(id)).toMatchObject({ version: 2 });

    expect(await drain(workerSend())).toMatchObject({ sent: 1, stopped: null });
    expect(await onServer(id)).toMatchObject({ description: 'Once', version: 2 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('a delete with the version it saw removes the entity', async () => {
    const id = uuidv7();
    await queue(categories, { kind: 'create', id, values: { name: name(), description: '' } });
    await queue(categories, { kind: 'delete', id, baseVersion: 1 });

    expect(await drain(workerSend())).toMatchObject({ sent: 2 });
    expect(await onServer(id)).toBeNull();
  });
});
