// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { uuidv7 } from '../../contract/uuid';
import { BODY_LIMIT, buildApp } from '../app';
import { IMAGE_LIMITS } from '../files/images';
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

/** A multipart body as a browser's FormData sends it: a new boundary every time. */
async function multipart(fields: Record<string, string>, files: { field: string; name: string; data: Uint8Array }[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field, new Blob([file.data], { type: 'image/png' }), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

const image = (background: string, width = 40) => sharp({ create: { width, height: 30, channels: 3, background } }).png().toBuffer();

describe.each(storeKinds)('Idempotency-Key on uploads (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let admin: Record<string, string>;
  let filesDir = '';
  /** What the test route's handler read, run by run. */
  const reads: { fields: Record<string, string>; files: number[] }[] = [];

  beforeAll(async () => {
    filesDir = await mkdtemp(join(tmpdir(), 'sitekeeper-idempotent-uploads-'));
    store = await createTestStore(kind);
    app = await buildApp({ config: testAppConfig({ filesDir }), store, mailer: memoryMailer(), logger: false });
    // Reads its parts the way a media upload does, and answers what it read.
    app.post('/api/test/form', { config: { policy: 'authenticated' } }, async (request) => {
      const read: (typeof reads)[number] = { fields: {}, files: [] };
      for await (const part of request.parts({ limits: { files: 2 } })) {
        if (part.type === 'file') read.files.push((await part.toBuffer()).length);
        else read.fields[part.fieldname] = String(part.value);
      }
      reads.push(read);
      return { success: true, data: { run: reads.length, ...read } };
    });
    await app.ready();
    const user = await seedUser(store, { type: 'admin', email: 'anna@example.test', username: 'anna', password: 'unused password' });
    admin = bearer(await tokenFor(store, user.id));
  });
  afterAll(async () => {
    await app.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const upload = async (url: string, key: string | undefined, body: Awaited<ReturnType<typeof multipart>>) =>
    app.inject({ method: 'POST', url, payload: body.payload, headers: { ...admin, ...body.headers, ...(key ? { 'idempotency-key': key } : {}) } });
  const storedImages = async () => (await readdir(join(filesDir, 'images')).catch(() => [])).length;
  const settingsVersion = async () => (await app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json().data.version as number;

  it('answers a resent upload with the first answer and stores its file once; another file under the same key is refused', async () => {
    const key = uuidv7();
    const logo = await image('#3366cc');
    const version = await settingsVersion();

    const first = await upload('/api/settings/logo', key, await multipart({}, [{ field: 'file', name: 'logo.png', data: logo }]));
    // The same file again, in a body with another boundary: the answer was lost, the outbox resends.
    const again = await upload('/api/settings/logo', key, await multipart({}, [{ field: 'file', name: 'logo.png', data: logo }]));

    expect(first.statusCode, first.body).toBe(200);
    expect([again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([200, first.body, 'true']);
    expect(await storedImages()).toBe(1);
    expect(await settingsVersion()).toBe(version + 1);

    const other = await upload('/api/settings/logo', key, await multipart({}, [{ field: 'file', name: 'logo.png', data: await image('#cc3366') }]));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ success: false, message: messages.idempotencyReused.message });
    expect(await storedImages()).toBe(1);
    expect(await settingsVersion()).toBe(version + 1);
  });

  it('hashes the text fields too, and hands the handler every part as if it had read them itself', async () => {
    const key = uuidv7();
    const [a, b] = [await image('#112233'), await image('#445566', 80)];
    const body = () => multipart({ folder: 'menu', compressImages: 'false' }, [{ field: 'files', name: 'a.png', data: a }, { field: 'files', name: 'b.png', data: b }]);

    const first = await upload('/api/test/form', key, await body());
    expect(first.json().data).toEqual({ run: reads.length, fields: { folder: 'menu', compressImages: 'false' }, files: [a.length, b.length] });
    expect((await upload('/api/test/form', key, await body())).body).toBe(first.body);

    const otherFolder = await upload('/api/test/form', key, await multipart({ folder: 'team', compressImages: 'false' }, [{ field: 'files', name: 'a.png', data: a }, { field: 'files', name: 'b.png', data: b }]));
    expect(otherFolder.statusCode).toBe(422);
    const otherOrder = await upload('/api/test/form', key, await multipart({ folder: 'menu', compressImages: 'false' }, [{ field: 'files', name: 'b.png', data: b }, { field: 'files', name: 'a.png', data: a }]));
    expect(otherOrder.statusCode).toBe(422);
    expect(reads).toHaveLength(first.json().data.run);
  });

  it('keeps the limits a handler asks for: one file too many, one byte too large', async () => {
    const small = await image('#778899');
    const three = await upload('/api/test/form', uuidv7(), await multipart({}, [1, 2, 3].map((n) => ({ field: 'files', name: `${n}.png`, data: small }))));
    expect([three.statusCode, three.json().message]).toEqual([413, messages.payloadTooLarge.message]);

    const tooLarge = new Uint8Array(IMAGE_LIMITS.maxBytes + 1);
    const refused = await upload('/api/settings/logo', uuidv7(), await multipart({}, [{ field: 'file', name: 'big.png', data: tooLarge }]));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ message: messages.fileTooLarge.message, data: { maxBytes: IMAGE_LIMITS.maxBytes } });
  });

  it('takes an upload of several megabytes while a JSON body stays within 1 MiB', async () => {
    // Noise does not compress: a PNG of about 3 MB.
    const noise = Buffer.from(Array.from({ length: 1024 * 1024 * 3 }, () => Math.floor(Math.random() * 256)));
    const photo = await sharp(noise, { raw: { width: 1024, height: 1024, channels: 3 } }).png().toBuffer();
    expect(photo.length).toBeGreaterThan(2 * BODY_LIMIT);

    const uploaded = await upload('/api/settings/logo', uuidv7(), await multipart({}, [{ field: 'file', name: 'photo.png', data: photo }]));
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const json = await app.inject({ method: 'POST', url: '/api/categories', headers: { ...admin, 'idempotency-key': uuidv7() }, payload: { name: 'x', description: 'y'.repeat(BODY_LIMIT) } });
    expect(json.statusCode).toBe(413);
  });
});
