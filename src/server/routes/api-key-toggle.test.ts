// @vitest-environment node
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { messages } from '../../contract/messages';
import { apiKeys } from '../store/schema';

/*
 * Issue 17, defect 11: switching a website's API key off and on takes If-Match like every other
 * change: 428 without a version, 409 with the key as it is when the version is stale.
 */

describe.each(storeKinds)('switching an API key (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const toggle = () => `/api/websites/${cast.site.A}/api-key/toggle`;
  const stored = async () => (await test.store.db.select({ isActive: apiKeys.isActive, version: apiKeys.version }).from(apiKeys).where(eq(apiKeys.websiteId, cast.site.A)))[0];

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
  });
  afterAll(() => test.app.close());

  it('answers 428 without a version or with one that is none, and changes nothing', async () => {
    expect((await send('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`, {})).statusCode).toBe(201);
    for (const ifMatch of [undefined, '"garbage"', '*']) {
      const res = await test.app.inject({ method: 'PATCH', url: toggle(), headers: { ...cast.headers.ownerA, ...(ifMatch ? { 'if-match': ifMatch } : {}) } });
      expect(`${ifMatch} → ${res.statusCode}`).toBe(`${ifMatch} → 428`);
      expect(res.json()).toEqual({ success: false, message: messages.versionRequired.message });
    }
    expect(await stored()).toEqual({ isActive: true, version: 1 });
  });

  it('answers 409 with the key as it is for a stale version, switches it from the current one, and 404 once there is none', async () => {
    const [current] = await test.store.db.select().from(apiKeys).where(eq(apiKeys.websiteId, cast.site.A));
    const stale = await send('ownerA', 'PATCH', toggle(), undefined, 7);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().data).toEqual({
      _id: current!.id,
      version: 1,
      isActive: true,
      prefix: current!.prefix,
      createdAt: current!.createdAt.toISOString(),
      updatedAt: current!.updatedAt.toISOString(),
    });
    expect(await stored()).toEqual({ isActive: true, version: 1 });

    const off = await send('ownerA', 'PATCH', toggle(), undefined, 1);
    expect(off.statusCode).toBe(200);
    expect(off.headers.etag).toBe('"2"');
    expect(data(off)).toMatchObject({ isActive: false, version: 2 });
    // The version it was switched from is stale now.
    expect((await send('ownerA', 'PATCH', toggle(), undefined, 1)).statusCode).toBe(409);
    expect(data(await send('ownerA', 'PATCH', toggle(), undefined, 2))).toMatchObject({ isActive: true, version: 3 });
    // No key at all: nothing to be in conflict with.
    expect((await send('ownerA', 'DELETE', `/api/websites/${cast.site.A}/api-key`, undefined, 3)).statusCode).toBe(200);
    expect((await send('ownerA', 'PATCH', toggle(), undefined, 3)).statusCode).toBe(404);
  });
});
