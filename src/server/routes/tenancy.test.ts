// @vitest-environment node
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, UNKNOWN_ID, type Cast, type Method, type Who } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { multipartFile, png } from '../../../tests/support/uploads';
import { seedPartner, seedWebsite } from '../../../tests/support/users';
import { apiKeys, appSettings, partners, pinChallenges, users, websites } from '../store/schema';

/*
 * Issue 10's matrix: the admin and owner area's tenancy on the server, on PGlite and PostgreSQL.
 * Another owner's website, partner record or API key answers 404 exactly like an unknown id and
 * changes nothing; admin-only endpoints answer 403 to owners, partners and team members, 401 to
 * the anonymous.
 */

type Call = [method: Method, url: string, body?: object | 'image'];

/** Every endpoint that names a website, its API key or a partner record. */
const ownedEndpoints = (site: string, record: string): Call[] => [
  ['GET', `/api/websites/${site}`],
  ['PUT', `/api/websites/${site}`, { name: 'Taken over', description: 'Mine now' }],
  ['DELETE', `/api/websites/${site}`],
  ['POST', `/api/websites/${site}/upload-preview`, 'image'],
  ['GET', `/api/websites/${site}/users`],
  ['GET', `/api/websites/${site}/api-key`],
  ['POST', `/api/websites/${site}/api-key`, {}],
  ['PUT', `/api/websites/${site}/api-key`, { isActive: false }],
  ['DELETE', `/api/websites/${site}/api-key`],
  ['PATCH', `/api/websites/${site}/api-key/toggle`],
  ['GET', `/api/partners/${record}`],
  ['PUT', `/api/partners/${record}`, { name: 'Taken over' }],
  ['DELETE', `/api/partners/${record}`],
];

describe.each(storeKinds)('tenancy of the admin and owner area (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let image: Buffer;
  /** Owner A's own partner record, and A's website with its key and preview in place. */
  let recordOfA = '';

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    image = await png(16, 16);
    recordOfA = (await seedPartner(test.store, { ownerId: cast.ids.ownerA, name: 'A’s own record' })).id;
    for (const site of [cast.site.A, cast.site.B]) {
      const owner = site === cast.site.A ? 'ownerA' : 'ownerB';
      expect((await send(owner, 'POST', `/api/websites/${site}/api-key`, {})).statusCode).toBe(201);
      expect((await send(owner, 'POST', `/api/websites/${site}/upload-preview`, multipartFile({ data: image, filename: 'p.png', contentType: 'image/png' }))).statusCode).toBe(200);
    }
  });
  afterAll(() => test.app.close());

  /** Everything an outsider's call could have changed, in a stable order. */
  async function snapshot() {
    const db = test.store.db;
    return {
      websites: await db.select().from(websites).orderBy(asc(websites.id)),
      partners: await db.select().from(partners).orderBy(asc(partners.id)),
      apiKeys: await db.select().from(apiKeys).orderBy(asc(apiKeys.id)),
      users: await db.select().from(users).orderBy(asc(users.id)),
      settings: await db.select().from(appSettings),
      challenges: await db.select().from(pinChallenges).orderBy(asc(pinChallenges.id)),
    };
  }

  /** The call with its body, and If-Match naming the version the row has now: only the caller can be why it fails. */
  async function call(who: Who, [method, url, body]: Call) {
    const payload = body === 'image' ? multipartFile({ data: image, filename: 'mine.png', contentType: 'image/png' }) : body;
    let version: number | undefined;
    if (method === 'PUT' || method === 'DELETE') {
      const [, , kindOf, id] = url.split('/');
      const [row] =
        kindOf === 'partners'
          ? await test.store.db.select({ version: partners.version }).from(partners).where(eq(partners.id, id!))
          : url.endsWith('/api-key')
            ? await test.store.db.select({ version: apiKeys.version }).from(apiKeys).where(eq(apiKeys.websiteId, id!))
            : await test.store.db.select({ version: websites.version }).from(websites).where(eq(websites.id, id!));
      version = row?.version ?? 1;
    }
    return send(who, method, url, payload, version);
  }

  it('answers another owner’s website, API key and partner record with 404, as an unknown id, and changes nothing', async () => {
    const before = await snapshot();
    const unknown = ownedEndpoints(UNKNOWN_ID, UNKNOWN_ID);
    const tries: [Who, Call[]][] = [
      ['ownerB', ownedEndpoints(cast.site.A, recordOfA)],
      ['ownerA', ownedEndpoints(cast.site.B, cast.partnerRecordA)],
      // The partner of website A is a stranger to B, and to A's owner's own record.
      ['partner', ownedEndpoints(cast.site.B, recordOfA)],
    ];
    for (const [who, calls] of tries) {
      for (const [index, attempt] of calls.entries()) {
        const res = await call(who, attempt);
        const asUnknown = await call(who, unknown[index]!);
        const name = `${who}: ${attempt[0]} ${attempt[1]}`;
        expect(`${name} → ${res.statusCode}`).toBe(`${name} → 404`);
        expect(res.json(), name).toEqual(asUnknown.json());
        expect(asUnknown.statusCode, name).toBe(404);
      }
    }
    for (const attempt of ownedEndpoints(cast.site.A, recordOfA)) {
      const res = await call('anonymous', attempt);
      expect(`anonymous: ${attempt[0]} ${attempt[1]} → ${res.statusCode}`).toBe(`anonymous: ${attempt[0]} ${attempt[1]} → 401`);
    }
    expect(await snapshot()).toEqual(before);
    // A stale version or a body that fails validation tells a stranger no more than an unknown id does:
    // a 409 would carry the current row, a validation error after a reach check would confirm the id.
    const odd: [Who, Method, string, string, object | undefined, number][] = [
      ['ownerB', 'PUT', `/api/websites/${cast.site.A}`, `/api/websites/${UNKNOWN_ID}`, { name: 'Stale' }, 999],
      ['ownerB', 'DELETE', `/api/websites/${cast.site.A}`, `/api/websites/${UNKNOWN_ID}`, undefined, 999],
      ['ownerB', 'PUT', `/api/websites/${cast.site.A}`, `/api/websites/${UNKNOWN_ID}`, { name: '', domain: 'not a domain' }, 1],
      ['ownerB', 'DELETE', `/api/websites/${cast.site.A}/api-key`, `/api/websites/${UNKNOWN_ID}/api-key`, undefined, 999],
      ['ownerB', 'PUT', `/api/partners/${recordOfA}`, `/api/partners/${UNKNOWN_ID}`, { name: 'Stale' }, 999],
      ['ownerB', 'DELETE', `/api/partners/${recordOfA}`, `/api/partners/${UNKNOWN_ID}`, undefined, 999],
      ['ownerB', 'PUT', `/api/partners/${recordOfA}`, `/api/partners/${UNKNOWN_ID}`, { name: '', email: 'not an address' }, 1],
    ];
    for (const [who, method, url, unknownUrl, body, version] of odd) {
      const res = await send(who, method, url, body, version);
      const asUnknown = await send(who, method, unknownUrl, body, version);
      expect(res.statusCode, `${method} ${url} v${version}`).toBe(asUnknown.statusCode);
      expect(res.json(), `${method} ${url} v${version}`).toEqual(asUnknown.json());
      expect([400, 404]).toContain(res.statusCode);
    }
    expect(await snapshot()).toEqual(before);
    // The preview of A is still served, and still A's.
    const previewA = data(await send('ownerA', 'GET', `/api/websites/${cast.site.A}`)).previewUrl;
    expect((await test.app.inject({ url: previewA })).statusCode).toBe(200);
  });

  it('keeps other owners’ rows out of lists, filters and figures', async () => {
    const listed = async (who: Who, url: string) => data(await send(who, 'GET', url)).map((row: { _id: string }) => row._id);
    expect(await listed('ownerB', '/api/websites?limit=100')).toEqual([cast.site.B]);
    expect(await listed('ownerB', `/api/websites?ownerId=${cast.ids.ownerA}`)).toEqual([]);
    expect(await listed('ownerB', `/api/websites?ids=${cast.site.A},${cast.site.B}`)).toEqual([cast.site.B]);
    expect(await listed('ownerB', '/api/websites/my-websites?limit=100')).toEqual([cast.site.B]);
    expect(data(await send('ownerB', 'GET', '/api/websites/stats')).total).toBe(1);
    expect(await listed('ownerB', `/api/partners?ownerId=${cast.ids.ownerA}`)).toEqual([]);
    expect(await listed('ownerB', `/api/partners/my-partners`)).toEqual([]);
    expect(data(await send('ownerB', 'GET', '/api/partners/stats')).total).toBe(0);
    expect(await listed('ownerA', '/api/partners?limit=100')).toEqual([recordOfA]);
    expect(await listed('partner', '/api/partners?limit=100')).toEqual([cast.partnerRecordA]);
  });

  it('lets a partner record’s owner reach a website through it, and takes the website away with the record', async () => {
    const site = await seedWebsite(test.store, { ownerId: cast.ids.ownerB, partnerUserId: cast.ids.partner, name: 'Shared with the partner' });
    const reach: Call[] = [
      ['GET', `/api/websites/${site.id}`],
      ['GET', `/api/websites/${site.id}/users`],
      ['PUT', `/api/websites/${site.id}`, { description: 'The partner was here' }],
      ['POST', `/api/websites/${site.id}/api-key`, {}],
      ['GET', `/api/websites/${site.id}/api-key`],
      ['POST', `/api/websites/${site.id}/upload-preview`, 'image'],
    ];
    for (const attempt of reach) {
      const res = await call('partner', attempt);
      expect(`${attempt[0]} ${attempt[1]} → ${res.statusCode}`).toMatch(/→ 20[01]$/);
    }
    expect(data(await send('partner', 'GET', '/api/websites/my-websites?limit=100')).map((w: { _id: string }) => w._id)).toContain(site.id);

    const current = data(await send('admin', 'GET', `/api/websites/${site.id}`));
    expect((await send('admin', 'PUT', `/api/websites/${site.id}`, { partnerId: null }, current.version)).statusCode).toBe(200);
    const before = await snapshot();
    for (const attempt of [...reach, ['DELETE', `/api/websites/${site.id}`] as Call, ['PATCH', `/api/websites/${site.id}/api-key/toggle`] as Call]) {
      const res = await call('partner', attempt);
      expect(`${attempt[0]} ${attempt[1]} → ${res.statusCode}`).toBe(`${attempt[0]} ${attempt[1]} → 404`);
    }
    expect(await snapshot()).toEqual(before);
    expect(data(await send('partner', 'GET', '/api/websites/my-websites?limit=100')).map((w: { _id: string }) => w._id)).not.toContain(site.id);
    expect(data(await send('partner', 'GET', '/api/websites?limit=100')).map((w: { _id: string }) => w._id)).not.toContain(site.id);
  });

  it('refuses every admin-only endpoint to owners, partners and team members (403) and to the anonymous (401)', async () => {
    const adminOnly: Call[] = [
      ['GET', '/api/users'],
      ['GET', '/api/users/stats'],
      ['GET', `/api/users/${cast.ids.ownerA}`],
      ['POST', '/api/users', { email: 'new-owner@example.test', type: 'partner' }],
      ['PUT', `/api/users/${cast.ids.ownerA}`, { status: 'suspended', type: 'partner' }],
      ['DELETE', `/api/users/${cast.ids.ownerB}`],
      ['GET', '/api/admins'],
      ['GET', '/api/admins/stats'],
      ['GET', `/api/admins/${cast.ids.admin}`],
      ['POST', '/api/admins', { email: 'new-admin@example.test' }],
      ['PUT', `/api/admins/${cast.ids.admin}`, { status: 'suspended' }],
      ['DELETE', `/api/admins/${cast.ids.admin}`],
      ['GET', '/api/users/dropdown?search=a'],
      ['POST', `/api/users/${cast.ids.ownerA}/reset-password`],
      ['GET', `/api/websites/client/${cast.ids.ownerA}`],
      ['GET', '/api/settings'],
      ['PUT', '/api/settings', { cmsName: 'Hijacked' }],
      ['POST', '/api/settings/logo', 'image'],
    ];
    const before = await snapshot();
    const mails = test.mailer.sent.length;
    const expected: [Who, number][] = [
      ['ownerA', 403],
      ['partner', 403],
      ['memberA', 403],
      ['plainA', 403],
      ['anonymous', 401],
    ];
    for (const [who, status] of expected) {
      for (const [method, url, body] of adminOnly) {
        const payload = body === 'image' ? multipartFile({ data: image, filename: 'logo.png', contentType: 'image/png' }) : body;
        const res = await send(who, method, url, payload, method === 'PUT' || method === 'DELETE' ? 1 : undefined);
        expect(`${who}: ${method} ${url} → ${res.statusCode}`).toBe(`${who}: ${method} ${url} → ${status}`);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect(test.mailer.sent.length).toBe(mails);
    // The same endpoints are there for an admin: the refusals above are about the caller.
    for (const [method, url] of adminOnly.filter(([verb]) => verb === 'GET')) {
      expect(`${url} → ${(await send('admin', method, url)).statusCode}`).toBe(`${url} → 200`);
    }
  });

  it('keeps team members out of the owners’ lists and creates, whatever their flags (403)', async () => {
    const ownersOnly: Call[] = [
      ['GET', '/api/websites'],
      ['GET', '/api/websites/stats'],
      ['POST', '/api/websites', { name: 'A website of my own' }],
      ['DELETE', `/api/websites/${cast.site.A}`],
      ['GET', '/api/partners'],
      ['GET', '/api/partners/stats'],
      ['POST', '/api/partners', { name: 'A record of my own' }],
      ['GET', `/api/partners/${cast.partnerRecordA}`],
      ['PUT', `/api/partners/${cast.partnerRecordA}`, { name: 'Renamed' }],
      ['DELETE', `/api/partners/${cast.partnerRecordA}`],
    ];
    const before = await snapshot();
    for (const who of ['memberA', 'plainA'] as const) {
      for (const attempt of ownersOnly) {
        const res = await call(who, attempt);
        expect(`${who}: ${attempt[0]} ${attempt[1]} → ${res.statusCode}`).toBe(`${who}: ${attempt[0]} ${attempt[1]} → 403`);
      }
    }
    expect(await snapshot()).toEqual(before);
    // A team member of B reaches nothing of A, its settings flag notwithstanding.
    for (const attempt of ownedEndpoints(cast.site.A, recordOfA).filter(([method, url]) => !url.startsWith('/api/partners') && method !== 'DELETE')) {
      const res = await call('memberB', attempt);
      expect(`${attempt[0]} ${attempt[1]} → ${res.statusCode}`).toBe(`${attempt[0]} ${attempt[1]} → 404`);
    }
    expect(await snapshot()).toEqual(before);
  });
});
