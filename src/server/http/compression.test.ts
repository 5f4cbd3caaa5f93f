// @vitest-environment node
import { eq } from 'drizzle-orm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { seedUser } from '../../../tests/support/users';
import { uuidv7 } from '../../contract/uuid';
import { COMPRESS_THRESHOLD } from '../app';
import { idempotencyKeys } from '../store/schema';

describe('compressed API answers', () => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let auth: Record<string, string>;
  // Big enough to be worth compressing, made of text a compressor shrinks a lot.
  const big = 'Speisekarte '.repeat(COMPRESS_THRESHOLD / 4);

  beforeAll(async () => {
    test = await createTestApp();
    test.app.get('/api/test/big', { config: { policy: 'public' } }, async () => ({ success: true, data: big }));
    test.app.get('/api/test/small', { config: { policy: 'public' } }, async () => ({ success: true, data: 'short' }));
    let created = 0;
    test.app.post('/api/test/create', { config: { policy: 'authenticated' } }, async () => ({ success: true, data: { n: ++created, big } }));
    await test.app.ready();
    const admin = await seedUser(test.store, { type: 'admin', email: 'zip@example.test', username: 'zip', password: 'unused password' });
    auth = bearer(await tokenFor(test.store, admin.id));
  });
  afterAll(() => test.app.close());

  it('sends brotli or gzip as the client accepts, and says it varies by that', async () => {
    const br = await test.app.inject({ url: '/api/test/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(big.length / 10);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).data).toBe(big);

    const gzip = await test.app.inject({ url: '/api/test/big', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString()).data).toBe(big);
  });

  it('sends plain JSON to a client that accepts no encoding, and small answers as they are', async () => {
    const plain = await test.app.inject({ url: '/api/test/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().data).toBe(big);
    const small = await test.app.inject({ url: '/api/test/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().data).toBe('short');
  });

  it('keeps the idempotent answer as plain JSON and replays it compressed as the repeat asks', async () => {
    const key = uuidv7();
    const headers = { ...auth, 'idempotency-key': key };
    const first = await test.app.inject({ method: 'POST', url: '/api/test/create', payload: {}, headers: { ...headers, 'accept-encoding': 'br' } });
    expect(first.headers['content-encoding']).toBe('br');
    const firstBody = brotliDecompressSync(first.rawPayload).toString();

    const [row] = await test.store.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row?.response).toBe(firstBody);

    const again = await test.app.inject({ method: 'POST', url: '/api/test/create', payload: {}, headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gunzipSync(again.rawPayload).toString()).toBe(firstBody);
    const plain = await test.app.inject({ method: 'POST', url: '/api/test/create', payload: {}, headers });
    expect(plain.body).toBe(firstBody);
    expect(JSON.parse(firstBody).data.n).toBe(1);
  });
});
