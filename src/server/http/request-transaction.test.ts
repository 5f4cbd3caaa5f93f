// @vitest-environment node
import { AsyncResource } from 'node:async_hooks';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { seedCast, type Cast } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { messages } from '../../contract/messages';
import { uuidv7 } from '../../contract/uuid';
import { afterCommit, HeldTooLong, holdTransaction, runHeld } from '../store/request-transaction';
import { apiKeys, categories, contactSubmissions, gastroItems, idempotencyKeys } from '../store/schema';
import { HttpError } from './errors';
import { REPLAY_HEADER } from './idempotency';
import { enforce } from './rate-limit';
import { MAX_JSON_DEPTH } from './json-body';

/** A category whose description is `depth` arrays inside each other, as JSON text: 5,000 of them are ten kilobytes. */
const nestedBody = (depth: number) => `{"name":"Deep","description":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

function expectEnvelope(res: LightMyRequestResponse, status: number, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, message });
}

/*
 * ADR 016: a mutating request runs in one transaction with its stored answer. These tests call
 * the real routes (and a few of their own, registered on the same app) on both stores.
 */
describe.each(storeKinds)('a request and its transaction (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  const seen: string[] = [];
  let release: (() => void) | null = null;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    const db = test.store.db;
    // Writes a category, then fails as a bug would: nothing of it may stay.
    test.app.post('/api/test/write-then-fail', { config: { policy: 'authenticated' } }, async (request) => {
      await db.insert(categories).values({ name: (request.body as { name: string }).name });
      throw new Error('a bug after the write');
    });
    // Writes a category, then refuses the request: a refusal keeps nothing but its counts.
    test.app.post('/api/test/write-then-refuse', { config: { policy: 'authenticated' } }, async (request, reply) => {
      await enforce(db, reply, [['test-refusals', { max: 2, windowMs: 60_000 }]], new Date());
      await db.insert(categories).values({ name: (request.body as { name: string }).name });
      throw new HttpError(400, messages.badRequest);
    });
    // Writes a category once the test lets it go on: a second request under its key arrives meanwhile.
    test.app.post('/api/test/slow-write', { config: { policy: 'authenticated' } }, async (request) => {
      const { name } = request.body as { name: string };
      await new Promise<void>((resolve) => (release = resolve));
      const [row] = await db.insert(categories).values({ name }).returning({ id: categories.id });
      afterCommit(() => void seen.push(name));
      return { success: true, data: row };
    });
    await test.app.ready();
    cast = await seedCast(test.store);
  });
  afterAll(() => test.app.close());

  const post = (url: string, payload: unknown, key?: string, who: keyof Cast['headers'] = 'admin') =>
    test.app.inject({ method: 'POST', url, payload: payload as object, headers: { ...cast.headers[who], ...(key ? { 'idempotency-key': key } : {}) } });
  const sendNested = (depth: number, key?: string) =>
    test.app.inject({
      method: 'POST',
      url: '/api/categories',
      payload: nestedBody(depth),
      headers: { ...cast.headers.admin, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    });
  const categoriesNamed = async (name: string) => (await test.store.db.select().from(categories).where(eq(categories.name, name))).length;

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with a 400 before anything runs, with a key or without`, async () => {
    for (const key of [uuidv7(), undefined]) expectEnvelope(await sendNested(5000, key), 400, messages.nestedTooDeep.message!);
    // Within the limit the body is read, and refused for what it says (a description is text).
    const within = await sendNested(MAX_JSON_DEPTH - 1, uuidv7());
    expect(within.statusCode).toBe(400);
    expect(within.json().message).toBe(messages.validationFailed.message);
    expect(await categoriesNamed('Deep')).toBe(0);
  });

  it('keeps nothing of a request that answered 5xx, and a retry under its key runs afresh', async () => {
    const key = uuidv7();
    for (const attempt of [1, 2]) {
      const res = await post('/api/test/write-then-fail', { name: 'Half written' }, attempt === 1 ? key : undefined);
      expectEnvelope(res, 500, messages.internal.message!);
    }
    expect(await categoriesNamed('Half written')).toBe(0);
    expect(await test.store.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
  });

  it('keeps nothing a refused request wrote but the count of its rate limit', async () => {
    const answers = [];
    for (const key of [uuidv7(), undefined, uuidv7()]) answers.push((await post('/api/test/write-then-refuse', { name: 'Refused' }, key)).statusCode);
    expect(answers).toEqual([400, 400, 429]);
    expect(await categoriesNamed('Refused')).toBe(0);
  });

  it('stores the answer of a refused statement (a name taken) and answers a retry with it', async () => {
    expect((await post('/api/categories', { name: 'Taken' })).statusCode).toBe(201);
    const key = uuidv7();
    const first = await post('/api/categories', { name: 'Taken' }, key);
    expect(first.statusCode, first.body).toBe(400);
    const again = await post('/api/categories', { name: 'Taken' }, key);
    expect([again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([400, first.body, 'true']);
    expect(await categoriesNamed('Taken')).toBe(1);
  });

  it('lets a retry arriving while the first request runs wait for it, then answers it the first answer', async () => {
    const key = uuidv7();
    const first = post('/api/test/slow-write', { name: 'Once only' }, key);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const retry = post('/api/test/slow-write', { name: 'Once only' }, key);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release!();
    const [a, b] = await Promise.all([first, retry]);
    expect(a.statusCode, a.body).toBe(200);
    expect([b.statusCode, b.body, b.headers[REPLAY_HEADER]]).toEqual([200, a.body, 'true']);
    expect(await categoriesNamed('Once only')).toBe(1);
    // What waits for the commit ran once it was there, and saw the row.
    expect(seen).toEqual(['Once only']);
  });

  it('answers a repeated delete of a row found through the row itself with its first answer, not 404', async () => {
    const menu = (await post(`/api/cms/gastro-menus/${cast.site.A}`, { name: 'Lunch' }, undefined, 'ownerA')).json().data;
    const dish = (await post(`/api/cms/gastro-menus/${menu._id}/items`, { name: 'Soup', price: 450 }, undefined, 'ownerA')).json().data;
    const key = uuidv7();
    const remove = () =>
      test.app.inject({ method: 'DELETE', url: `/api/cms/gastro-menus/items/${dish._id}`, headers: { ...cast.headers.ownerA, 'idempotency-key': key, 'if-match': `"${dish.version}"` } });
    const first = await remove();
    expect(first.statusCode, first.body).toBe(200);
    const again = await remove();
    expect([again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([200, first.body, 'true']);
    expect(await test.store.db.select().from(gastroItems).where(eq(gastroItems.id, dish._id))).toEqual([]);
    // Another caller's request under the same key is a request of its own: the row is gone for them.
    const stranger = await test.app.inject({
      method: 'DELETE',
      url: `/api/cms/gastro-menus/items/${dish._id}`,
      headers: { ...cast.headers.ownerB, 'idempotency-key': key, 'if-match': `"${dish.version}"` },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('never keeps a new API key with its answer: a retry says it was shown once', async () => {
    const key = uuidv7();
    const make = () => test.app.inject({ method: 'POST', url: `/api/websites/${cast.site.A}/api-key`, payload: {}, headers: { ...cast.headers.ownerA, 'idempotency-key': key } });
    const first = await make();
    expect(first.statusCode, first.body).toBe(201);
    const shown = first.json().data.key as string;
    expect(shown).toMatch(/^skp_/);
    const again = await make();
    expect(again.statusCode).toBe(201);
    expect(again.headers[REPLAY_HEADER]).toBe('true');
    expect(again.json()).toMatchObject({ success: true, message: messages.shownOnce.message, data: { prefix: first.json().data.prefix } });
    expect(again.json().data).not.toHaveProperty('key');
    const kept = await test.store.db.select({ response: idempotencyKeys.response }).from(idempotencyKeys);
    expect(kept.filter(({ response }) => response?.includes(shown))).toEqual([]);
    // Still one key, the one shown.
    expect(await test.store.db.select().from(apiKeys).where(eq(apiKeys.websiteId, cast.site.A))).toHaveLength(1);
  });

  it('accepts an Idempotency-Key on a visitor’s form submission: one submission, the first answer again', async () => {
    const key = (await post(`/api/websites/${cast.site.A}/api-key`, {}, undefined, 'ownerA')).json().data.key as string;
    const form = await post(`/api/cms/contact-forms/${cast.site.A}`, { name: 'Booking', recipientEmail: 'inbox@example.test', fields: [{ label: 'Name', required: true }] }, undefined, 'ownerA');
    expect(form.statusCode, form.body).toBe(201);
    const formId = form.json().data._id as string;
    const idempotencyKey = uuidv7();
    const submit = (name: string) =>
      test.app.inject({ method: 'POST', url: `/api/public/forms/${formId}/submissions`, payload: { name }, headers: { 'x-api-key': key, 'idempotency-key': idempotencyKey } });
    const first = await submit('Maria');
    expect(first.statusCode, first.body).toBe(201);
    const again = await submit('Maria');
    expect([again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([201, first.body, 'true']);
    expect((await submit('Someone else')).statusCode).toBe(422);
    const stored = await test.store.db.select().from(contactSubmissions).where(eq(contactSubmissions.formId, formId));
    expect(stored).toHaveLength(1);
  });
});

describe('a request stuck holding the embedded database', () => {
  it('is undone after its limit: the database serves others again, and nothing of the stuck request is kept or written later', async () => {
    const store = await createTestStore('pglite');
    try {
      const expired: string[] = [];
      // Bound here, it runs outside any request: on one connection it waits for the held transaction to end.
      const outside = AsyncResource.bind(() => store.db.select().from(categories));
      const held = await holdTransaction(store.db, { ms: 200, onExpired: () => expired.push('stuck') });
      const late = await new Promise<unknown>((resolve) =>
        runHeld(held, () => {
          void (async () => {
            await store.db.insert(categories).values({ name: 'Half a change' });
            await outside();
            try {
              resolve(await store.db.insert(categories).values({ name: 'Written later' }));
            } catch (error) {
              resolve(error);
            }
          })();
        }),
      );
      expect(expired).toEqual(['stuck']);
      expect(late).toBeInstanceOf(HeldTooLong);
      await expect(held.commit(false)).rejects.toBeInstanceOf(HeldTooLong);
      expect(await store.db.select({ name: categories.name }).from(categories)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
