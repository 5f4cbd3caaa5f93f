// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { uuidv7 } from '../../contract/uuid';
import { categories, idempotencyKeys } from '../store/schema';
import { IDEMPOTENCY_TTL_MS, PENDING_TIMEOUT_MS, REPLAY_HEADER } from './idempotency';

describe.each(storeKinds)('Idempotency-Key (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let anna: Record<string, string>;
  let ben: Record<string, string>;
  /** How often each test route's handler really ran. */
  const runs = { counter: 0, flaky: 0, public: 0 };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    test.app.post('/api/test/counter', { config: { policy: 'authenticated' } }, async () => ({ success: true, data: ++runs.counter }));
    test.app.post('/api/test/public', { config: { policy: 'public' } }, async () => ({ success: true, data: ++runs.public }));
    // Fails on its first run, as a request does when the database is briefly away.
    test.app.post('/api/test/flaky', { config: { policy: 'authenticated' } }, async () => {
      if (++runs.flaky === 1) throw new Error('database went away');
      return { success: true, data: runs.flaky };
    });
    await test.app.ready();
    const admin = await seedUser(test.store, { type: 'admin', email: 'anna@example.test', username: 'anna', password: 'unused password' });
    const other = await seedUser(test.store, { type: 'admin', email: 'ben@example.test', username: 'ben', password: 'unused password' });
    anna = bearer(await tokenFor(test.store, admin.id));
    ben = bearer(await tokenFor(test.store, other.id));
  });
  afterAll(() => test.app.close());

  const post = (url: string, key: string | undefined, payload: object = {}, who = anna) =>
    test.app.inject({ method: 'POST', url, payload, headers: { ...who, ...(key ? { 'idempotency-key': key } : {}) } });
  const keyRow = async (key: string) => (await test.store.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];
  const backdate = (key: string, ms: number) =>
    test.store.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`${idempotencyKeys.createdAt} - ${`${ms} milliseconds`}::interval` })
      .where(eq(idempotencyKeys.key, key));

  it('answers a repeated create with the stored answer, byte for byte, and creates one row', async () => {
    const key = uuidv7();
    const first = await post('/api/categories', key, { name: 'Bakeries', description: 'Bread' });
    // The same body with its keys in another order is the same request.
    const again = await post('/api/categories', key, { description: 'Bread', name: 'Bakeries' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers[REPLAY_HEADER]).toBe('true');
    expect(first.headers[REPLAY_HEADER]).toBeUndefined();
    expect(await test.store.db.select().from(categories).where(eq(categories.name, 'Bakeries'))).toHaveLength(1);
  });

  it('replays a client error too, and runs a request without a key every time', async () => {
    const key = uuidv7();
    const first = await post('/api/categories', key, { name: '' });
    expect(first.statusCode).toBe(400);
    const again = await post('/api/categories', key, { name: '' });
    expect([again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([400, first.body, 'true']);

    const before = runs.counter;
    await post('/api/test/counter', undefined);
    await post('/api/test/counter', undefined);
    expect(runs.counter).toBe(before + 2);
  });

  it('refuses the same key for another request with 422', async () => {
    const key = uuidv7();
    expect((await post('/api/categories', key, { name: 'Butchers' })).statusCode).toBe(201);
    const otherBody = await post('/api/categories', key, { name: 'Grocers' });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({ success: false, message: messages.idempotencyReused.message });
    expect((await post('/api/test/counter', key, { name: 'Butchers' })).statusCode).toBe(422);
    expect(await test.store.db.select().from(categories).where(eq(categories.name, 'Grocers'))).toHaveLength(0);
  });

  it('answers 409 while the first request runs, and takes over one that died a minute ago', async () => {
    const key = uuidv7();
    const first = await post('/api/test/counter', key);
    // Back to pending, as if the first request were still running.
    await test.store.db.update(idempotencyKeys).set({ status: null, response: null }).where(eq(idempotencyKeys.key, key));
    const inFlight = await post('/api/test/counter', key);
    expect(inFlight.statusCode).toBe(409);
    expect(inFlight.json().message).toBe(messages.idempotencyInFlight.message);

    await backdate(key, PENDING_TIMEOUT_MS + 1000);
    const retried = await post('/api/test/counter', key);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toBe(first.json().data + 1);
    expect((await post('/api/test/counter', key)).body).toBe(retried.body);
  });

  it('releases the key after a 5xx so that a retry runs again', async () => {
    const key = uuidv7();
    expect((await post('/api/test/flaky', key)).statusCode).toBe(500);
    expect(await keyRow(key)).toBeUndefined();
    const retry = await post('/api/test/flaky', key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers[REPLAY_HEADER]).toBeUndefined();
    expect((await keyRow(key))?.status).toBe(200);
  });

  it('forgets a key after 7 days', async () => {
    const key = uuidv7();
    const first = await post('/api/test/counter', key);
    await backdate(key, IDEMPOTENCY_TTL_MS + 1000);
    const later = await post('/api/test/counter', key, { another: 'body' });
    expect(later.statusCode).toBe(200);
    expect(later.json().data).toBeGreaterThan(first.json().data);
  });

  it('keeps keys per caller', async () => {
    const key = uuidv7();
    const mine = await post('/api/test/counter', key);
    const theirs = await post('/api/test/counter', key, {}, ben);
    expect(theirs.headers[REPLAY_HEADER]).toBeUndefined();
    expect(theirs.json().data).toBe(mine.json().data + 1);
  });

  it('refuses a key that is not a UUID', async () => {
    const res = await post('/api/test/counter', 'retry-1');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.idempotencyKeyFormat.message);
  });

  it('leaves public routes alone: their answers may carry secrets', async () => {
    const key = uuidv7();
    const before = runs.public;
    const first = await post('/api/test/public', key);
    const again = await post('/api/test/public', key);
    expect(runs.public).toBe(before + 2);
    expect(again.headers[REPLAY_HEADER]).toBeUndefined();
    expect(again.body).not.toBe(first.body);
    expect(await keyRow(key)).toBeUndefined();
  });
});
