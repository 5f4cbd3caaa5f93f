// @vitest-environment node
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_FILES_DIR } from '../../../tests/support/app';
import { data, seedCast, sender, UNKNOWN_ID, type Cast } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { html, multipartFile, pixelBomb, png, svg } from '../../../tests/support/uploads';
import { seedPartner, seedWebsite } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { hashToken } from '../auth/secrets';
import { apiKeys, partners, websites } from '../store/schema';

/*
 * Issue 10, the websites module on the server: websites, partner records and API keys, each
 * endpoint for its rightful caller, what a body cannot set, and bad input answered as 4xx.
 * Who may not reach what is tenancy.test.ts's matrix.
 */

const names = (res: { json(): { data: { name: string }[] } }) => res.json().data.map((row) => row.name);

describe.each(storeKinds)('websites, partners and API keys (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const catalog = { categoryA: '', categoryB: '', subcategoryOfB: '', technology: '' };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    const made = async (url: string, body: object) => {
      const res = await send('admin', 'POST', url, body);
      expect(res.statusCode, res.body).toBe(201);
      return data(res)._id as string;
    };
    catalog.categoryA = await made('/api/categories', { name: 'Gastronomy' });
    catalog.categoryB = await made('/api/categories', { name: 'Crafts' });
    catalog.subcategoryOfB = await made('/api/subcategories', { name: 'Carpentry', categoryId: catalog.categoryB });
    catalog.technology = await made('/api/technologies', { name: 'React' });
  });
  afterAll(() => test.app.close());

  const stored = async (id: string) => (await test.store.db.select().from(websites).where(eq(websites.id, id)))[0];
  const upload = (file: { data: Buffer; filename: string; contentType: string }, site = cast.site.A) =>
    send('ownerA', 'POST', `/api/websites/${site}/upload-preview`, multipartFile(file));
  const websiteCount = async () => (await test.store.db.select({ id: websites.id }).from(websites)).length;
  const record = async (id: string) => (await test.store.db.select().from(partners).where(eq(partners.id, id)))[0];
  const keyUrl = () => `/api/websites/${cast.site.B}/api-key`;
  const keyRows = async () => test.store.db.select().from(apiKeys).where(eq(apiKeys.websiteId, cast.site.B));

  describe('websites', () => {
    it('lets an owner create, read, list, count, change and delete their websites', async () => {
      const created = await send('ownerA', 'POST', '/api/websites', { name: 'Bakery Berg', domain: ' Bakery.Example.COM ', description: 'Bread' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers.etag).toBe('"1"');
      const site = data(created);
      expect(site).toMatchObject({
        name: 'Bakery Berg',
        domain: 'bakery.example.com',
        ownerId: cast.ids.ownerA,
        partnerId: null,
        status: 'pending',
        price: 0,
        currency: 'EUR',
        modules: [],
        previewUrl: null,
        version: 1,
      });
      expect(data(await send('ownerA', 'GET', `/api/websites/${site._id}`))).toEqual(site);

      const listed = await send('ownerA', 'GET', '/api/websites?search=bakery&limit=5');
      expect(listed.statusCode).toBe(200);
      expect(names(listed)).toEqual(['Bakery Berg']);
      expect(listed.json().pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 5 });
      const mine = names(await send('ownerA', 'GET', '/api/websites?limit=100'));
      expect(mine).toEqual(expect.arrayContaining(['Bakery Berg', 'Site A']));
      expect(mine).not.toContain('Site B');
      const stats = data(await send('ownerA', 'GET', '/api/websites/stats'));
      expect(stats.total).toBe(mine.length);
      expect(stats.by.status.pending).toBe(mine.length);

      const changed = await send('ownerA', 'PUT', `/api/websites/${site._id}`, { name: 'Bakery Berg & Sons' }, 1);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(data(changed)).toMatchObject({ name: 'Bakery Berg & Sons', domain: 'bakery.example.com', version: 2 });
      expect((await send('ownerA', 'PUT', `/api/websites/${site._id}`, { name: 'No version' })).statusCode).toBe(428);
      const stale = await send('ownerA', 'PUT', `/api/websites/${site._id}`, { name: 'Stale' }, 1);
      expect(stale.statusCode).toBe(409);
      expect(data(stale)).toMatchObject({ name: 'Bakery Berg & Sons', version: 2 });

      const preview = await send('ownerA', 'POST', `/api/websites/${site._id}/upload-preview`, multipartFile({ data: await png(), filename: 'p.png', contentType: 'image/png' }));
      expect(preview.statusCode).toBe(200);
      const previewUrl = data(preview).previewUrl as string;
      expect((await test.app.inject({ url: previewUrl })).statusCode).toBe(200);
      const photo = await send('ownerA', 'POST', `/api/cms/media/${site._id}/upload`, multipartFile({ data: await png(), filename: 'shop.png', contentType: 'image/png' }));
      expect(photo.statusCode, photo.body).toBe(201);
      const photoUrl = data(photo).url as string;

      expect((await send('ownerA', 'DELETE', `/api/websites/${site._id}`, undefined, 3)).statusCode).toBe(200);
      expect((await send('ownerA', 'GET', `/api/websites/${site._id}`)).statusCode).toBe(404);
      expect(await stored(site._id)).toBeUndefined();
      // Its preview and its media library wait with it in the recycle bin, and go when it is purged from there.
      expect((await test.app.inject({ url: previewUrl })).statusCode).toBe(200);
      expect((await test.app.inject({ url: photoUrl })).statusCode).toBe(200);
      const entry = (data(await send('admin', 'GET', '/api/recycle-bin?limit=100')) as unknown as { _id: string; resource: string }[]).find((one) => one.resource === 'websites')!;
      expect((await send('admin', 'DELETE', `/api/recycle-bin/${entry._id}`, undefined, 1)).statusCode).toBe(200);
      await expect.poll(async () => (await test.app.inject({ url: previewUrl })).statusCode).toBe(404);
      await expect.poll(async () => (await test.app.inject({ url: photoUrl })).statusCode).toBe(404);
    });

    it('lets an admin name owner, partner and status, see every website and one client’s', async () => {
      const nameless = await send('admin', 'POST', '/api/websites', { name: 'Whose?' });
      expect(nameless.statusCode).toBe(400);
      expect(nameless.json().errors).toEqual([{ path: 'body.ownerId', message: messages.required.message }]);

      const res = await send('admin', 'POST', '/api/websites', { name: 'Made for B', ownerId: cast.ids.ownerB, partnerId: cast.partnerRecordA, status: 'active' });
      expect(res.statusCode, res.body).toBe(201);
      const site = data(res);
      expect(site).toMatchObject({ ownerId: cast.ids.ownerB, partnerId: cast.partnerRecordA, status: 'active' });
      expect(await stored(site._id)).toMatchObject({ ownerId: cast.ids.ownerB, partnerId: cast.partnerRecordA, status: 'active' });

      const all = names(await send('admin', 'GET', '/api/websites?limit=100'));
      expect(all).toEqual(expect.arrayContaining(['Site A', 'Site B', 'Made for B']));
      expect(names(await send('admin', 'GET', `/api/websites?ownerId=${cast.ids.ownerB}&status=active`))).toEqual(['Made for B']);
      const client = await send('admin', 'GET', `/api/websites/client/${cast.ids.ownerB}?limit=100`);
      expect(client.statusCode).toBe(200);
      expect(names(client).toSorted()).toEqual(['Made for B', 'Site B']);
      expect((await send('admin', 'GET', '/api/websites/client/not-a-uuid')).statusCode).toBe(404);
      const stats = data(await send('admin', 'GET', '/api/websites/stats'));
      expect(stats.total).toBeGreaterThanOrEqual(3);
      expect(stats.by.status.active).toBeGreaterThanOrEqual(1);

      // The admin moves it to another owner and takes the partner away.
      const moved = await send('admin', 'PUT', `/api/websites/${site._id}`, { ownerId: cast.ids.ownerA, partnerId: null, status: 'maintenance' }, 1);
      expect(data(moved)).toMatchObject({ ownerId: cast.ids.ownerA, partnerId: null, status: 'maintenance' });
      expect((await send('admin', 'DELETE', `/api/websites/${site._id}`, undefined, 2)).statusCode).toBe(200);
    });

    it('lists my websites: an owner’s, a partner record owner’s, a team member’s one, an admin’s own', async () => {
      const my = async (who: 'ownerA' | 'ownerB' | 'partner' | 'memberA' | 'admin') => {
        const res = await send(who, 'GET', '/api/websites/my-websites?limit=100');
        expect(res.statusCode, res.body).toBe(200);
        return names(res);
      };
      expect(await my('ownerA')).toContain('Site A');
      expect(await my('ownerA')).not.toContain('Site B');
      expect(await my('ownerB')).toEqual(['Site B']);
      // Through the partner record on website A, not as its owner.
      expect(await my('partner')).toEqual(['Site A']);
      expect(await my('memberA')).toEqual(['Site A']);
      expect(await my('admin')).toEqual([]);
      expect((await send('anonymous', 'GET', '/api/websites/my-websites')).statusCode).toBe(401);
      // An admin's are theirs the same way: owned, or partnered through a record of theirs.
      const adminRecord = await seedPartner(test.store, { ownerId: cast.ids.admin, name: 'Ada’s record' });
      const partnered = await seedWebsite(test.store, { ownerId: cast.ids.ownerB, name: 'Partnered by the admin' });
      await test.store.db.update(websites).set({ partnerId: adminRecord.id }).where(eq(websites.id, partnered.id));
      expect(await my('admin')).toEqual(['Partnered by the admin']);
      expect((await my('ownerB')).toSorted()).toEqual(['Partnered by the admin', 'Site B']);
    });

    it('stamps every server-owned field, whatever an owner’s body says, on create and on update', async () => {
      // A partner record of someone else's: naming it must not tie the website to it.
      const foreignRecord = await seedPartner(test.store, { ownerId: cast.ids.ownerB, name: 'B’s record' });
      const sneaky = {
        ownerId: cast.ids.ownerB,
        partnerId: foreignRecord.id,
        status: 'active',
        price: 99_900,
        currency: 'USD',
        modules: ['pages', 'gastro'],
        previewUrl: '/api/files/images/00000000-0000-4000-8000-000000000000.webp',
        previewKey: 'images/00000000-0000-4000-8000-000000000000.webp',
        websiteId: cast.site.B,
        version: 42,
      };
      const res = await send('ownerA', 'POST', '/api/websites', { name: 'Sneaky', ...sneaky });
      expect(res.statusCode, res.body).toBe(201);
      const id = data(res)._id;
      const expected = { ownerId: cast.ids.ownerA, partnerId: null, status: 'pending', price: 0, currency: 'EUR', modules: [], previewKey: null, version: 1 };
      expect(await stored(id)).toMatchObject(expected);
      const { previewKey: _key, ...shown } = expected;
      expect(data(res)).toMatchObject({ ...shown, previewUrl: null });
      expect(data(res)).not.toHaveProperty('previewKey');

      const updated = await send('ownerA', 'PUT', `/api/websites/${id}`, { name: 'Still mine', ...sneaky }, 1);
      expect(updated.statusCode, updated.body).toBe(200);
      expect(await stored(id)).toMatchObject({ ...expected, name: 'Still mine', version: 2 });

      // A partner account's website is its own, with its own partner record: not the one it names.
      const byPartner = await send('partner', 'POST', '/api/websites', { name: 'By the partner', ...sneaky });
      expect(byPartner.statusCode, byPartner.body).toBe(201);
      const partnerSite = await stored(data(byPartner)._id);
      // Its oldest active record: the one it has on website A.
      expect(partnerSite).toMatchObject({ ownerId: cast.ids.partner, partnerId: cast.partnerRecordA, status: 'pending', price: 0, modules: [] });
    });

    it('lets a team member read their website, and with the settings flag rename it but not change its status', async () => {
      const before = (await stored(cast.site.A))!;
      const read = await send('memberA', 'GET', `/api/websites/${cast.site.A}`);
      expect(read.statusCode).toBe(200);
      expect(data(read).name).toBe(before.name);
      expect((await send('plainA', 'GET', `/api/websites/${cast.site.A}`)).statusCode).toBe(200);
      expect((await send('memberA', 'GET', `/api/websites/${cast.site.B}`)).statusCode).toBe(404);

      const refused = await send('plainA', 'PUT', `/api/websites/${cast.site.A}`, { name: 'Renamed by the CMS role' }, before.version);
      expect(refused.statusCode).toBe(403);
      const upload403 = await send('plainA', 'POST', `/api/websites/${cast.site.A}/upload-preview`, multipartFile({ data: await png(), filename: 'p.png', contentType: 'image/png' }));
      expect(upload403.statusCode).toBe(403);
      expect((await stored(cast.site.A))!.version).toBe(before.version);

      const renamed = await send('memberA', 'PUT', `/api/websites/${cast.site.A}`, { name: 'Site A, by its team', description: 'Team text', status: 'inactive', ownerId: cast.ids.memberA }, before.version);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await stored(cast.site.A)).toMatchObject({ name: 'Site A, by its team', description: 'Team text', status: before.status, ownerId: cast.ids.ownerA, partnerId: cast.partnerRecordA, version: before.version + 1 });
      // Lists, creates and deletes stay with owners and admins.
      expect((await send('memberA', 'GET', '/api/websites')).statusCode).toBe(403);
      expect((await send('memberA', 'POST', '/api/websites', { name: 'Mine' })).statusCode).toBe(403);
      expect((await send('memberA', 'DELETE', `/api/websites/${cast.site.A}`, undefined, before.version + 1)).statusCode).toBe(403);
      expect(await stored(cast.site.A)).toBeDefined();
    });

    it('lists the people of a website: owner, partner and team', async () => {
      const res = await send('ownerA', 'GET', `/api/websites/${cast.site.A}/users`);
      expect(res.statusCode, res.body).toBe(200);
      const people = data(res).map((p: { _id: string; relation: string; role: string | null }) => [p._id, p.relation, p.role]);
      expect(people).toEqual([
        [cast.ids.ownerA, 'owner', null],
        [cast.ids.partner, 'partner', null],
        [cast.ids.memberA, 'team', 'Role of member-a'],
        [cast.ids.plainA, 'team', 'Role of plain-a'],
      ]);
      expect(JSON.stringify(data(res))).not.toMatch(/password|member-b/i);
      // The team flag decides for the team.
      expect((await send('memberA', 'GET', `/api/websites/${cast.site.A}/users`)).statusCode).toBe(200);
      expect((await send('plainA', 'GET', `/api/websites/${cast.site.A}/users`)).statusCode).toBe(403);
      expect((await send('partner', 'GET', `/api/websites/${cast.site.A}/users`)).statusCode).toBe(200);
    });
  });

  describe('preview images', () => {

    it('stores an uploaded PNG as WebP and serves it inert; a new one replaces it', async () => {
      const before = (await stored(cast.site.A))!;
      const res = await upload({ data: await png(64, 48), filename: 'shot.png', contentType: 'image/png' });
      expect(res.statusCode, res.body).toBe(200);
      const { previewUrl, version } = data(res);
      expect(previewUrl).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}\.webp$/);
      expect(version).toBe(before.version + 1);
      expect(data(await send('ownerA', 'GET', `/api/websites/${cast.site.A}`)).previewUrl).toBe(previewUrl);

      const served = await test.app.inject({ url: previewUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });

      const again = await upload({ data: await png(32, 32), filename: 'second.png', contentType: 'image/png' });
      expect(again.statusCode).toBe(200);
      expect(data(again).previewUrl).not.toBe(previewUrl);
      expect((await test.app.inject({ url: previewUrl })).statusCode).toBe(404);
      expect((await test.app.inject({ url: data(again).previewUrl })).statusCode).toBe(200);
    });

    it('refuses what is not a raster image, too large or a pixel bomb, with 4xx and nothing stored', async () => {
      const before = (await stored(cast.site.A))!;
      const json = await send('ownerA', 'POST', `/api/websites/${cast.site.A}/upload-preview`, { file: 'not multipart' });
      expect(json.statusCode).toBe(415);
      // 144 megapixels: past the server's limit, yet within sharp's own default one, so only the server's refuses it.
      const cases: [string, { data: Buffer; filename: string; contentType: string }, number, string][] = [
        ['svg', { data: svg, filename: 'logo.svg', contentType: 'image/svg+xml' }, 415, messages.imageTypeRefused.message!],
        ['html as .png', { data: html, filename: 'innocent.png', contentType: 'image/png' }, 415, messages.imageTypeRefused.message!],
        ['pixel bomb', { data: await pixelBomb(12_000, 12_000), filename: 'bomb.png', contentType: 'image/png' }, 413, messages.imageTooManyPixels.message!],
        [
          'over 10 MB',
          { data: Buffer.concat([await png(8, 8), Buffer.alloc(10 * 1024 * 1024 + 1)]), filename: 'huge.png', contentType: 'image/png' },
          413,
          messages.fileTooLarge.message!,
        ],
      ];
      for (const [name, file, status, message] of cases) {
        const res = await upload(file);
        expect(`${name} → ${res.statusCode}`).toBe(`${name} → ${status}`);
        expect(res.json()).toMatchObject({ success: false, message });
      }
      const empty = await upload({ data: Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(messages.fileEmpty.message);
      const boundary = `----sitekeeper${randomUUID().replaceAll('-', '')}`;
      const fieldsOnly = await send('ownerA', 'POST', `/api/websites/${cast.site.A}/upload-preview`, {
        payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nno file here\r\n--${boundary}--\r\n`),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(fieldsOnly.statusCode).toBe(400);
      expect(fieldsOnly.json().message).toBe(messages.fileMissing.message);
      expect(await stored(cast.site.A)).toMatchObject({ previewKey: before.previewKey, version: before.version });
    });

    it('serves nothing outside the files folder, whatever the path says', async () => {
      // A file beside the files folder, where a traversal would land.
      const name = `outside-${randomUUID()}.webp`;
      const outside = join(dirname(TEST_FILES_DIR), name);
      await writeFile(outside, 'TOP SECRET');
      try {
        for (const url of [
          '/api/files/../x',
          `/api/files/../${name}`,
          `/api/files/..%2F${name}`,
          `/api/files/%2E%2E/${name}`,
          `/api/files/images/..%2F..%2F${name}`,
          `/api/files/images%2F..%2F../${name}`,
        ]) {
          const res = await test.app.inject({ url });
          expect(`${url} → ${res.statusCode}`).toBe(`${url} → 404`);
          expect(res.body).not.toContain('TOP SECRET');
        }
      } finally {
        await rm(outside, { force: true });
      }
    });
  });

  describe('bad input', () => {
    it('answers unknown technologies, a subcategory of another category, a bad domain and an unknown partner as field errors', async () => {
      const before = await websiteCount();
      const cases: [string, 'ownerA' | 'admin', object, string][] = [
        ['unknown technology', 'ownerA', { technologyIds: [catalog.technology, UNKNOWN_ID] }, 'body.technologyIds'],
        ['subcategory of another category', 'ownerA', { categoryId: catalog.categoryA, subcategoryId: catalog.subcategoryOfB }, 'body.subcategoryId'],
        ['domain with a scheme', 'ownerA', { domain: 'https://example.com' }, 'body.domain'],
        ['domain without a dot', 'ownerA', { domain: 'localhost' }, 'body.domain'],
        ['unknown partner record', 'admin', { ownerId: cast.ids.ownerA, partnerId: UNKNOWN_ID }, 'body.partnerId'],
        ['unknown category', 'ownerA', { categoryId: UNKNOWN_ID }, 'body.categoryId'],
        ['unknown subcategory', 'ownerA', { categoryId: catalog.categoryB, subcategoryId: UNKNOWN_ID }, 'body.subcategoryId'],
        ['unknown language', 'ownerA', { languageIds: [UNKNOWN_ID] }, 'body.languageIds'],
        ['unknown service item', 'ownerA', { items: ['no-such-service'] }, 'body.items'],
      ];
      for (const [name, who, body, path] of cases) {
        const res = await send(who, 'POST', '/api/websites', { name: `Bad: ${name}`, ...body });
        expect(`${name} → ${res.statusCode}`).toBe(`${name} → 400`);
        expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual([path]);
      }
      expect(await websiteCount()).toBe(before);

      // The same on an update: refused, and the website as it was.
      const site = data(await send('ownerA', 'POST', '/api/websites', { name: 'Checked', categoryId: catalog.categoryB, technologyIds: [catalog.technology] }));
      for (const [name, who, body, path] of cases.filter(([, caller]) => caller === 'ownerA')) {
        const res = await send(who, 'PUT', `/api/websites/${site._id}`, body, 1);
        expect(`${name} → ${res.statusCode}`).toBe(`${name} → 400`);
        expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual([path]);
      }
      const partnerMove = await send('admin', 'PUT', `/api/websites/${site._id}`, { partnerId: UNKNOWN_ID }, 1);
      expect(partnerMove.statusCode).toBe(400);
      expect(partnerMove.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.partnerId']);
      // Its own category's subcategory is fine; another category's, sent alone, is not.
      expect((await send('ownerA', 'PUT', `/api/websites/${site._id}`, { subcategoryId: catalog.subcategoryOfB }, 1)).statusCode).toBe(200);
      expect((await send('ownerA', 'PUT', `/api/websites/${site._id}`, { categoryId: catalog.categoryA }, 2)).statusCode).toBe(400);
      expect(await stored(site._id)).toMatchObject({ categoryId: catalog.categoryB, subcategoryId: catalog.subcategoryOfB, technologyIds: [catalog.technology], version: 2 });
    });
  });

  describe('partner records', () => {
    it('lets an owner keep their own records, but never set their type, status or owner', async () => {
      const res = await send('ownerA', 'POST', '/api/partners', {
        name: 'Anna’s Agency',
        email: 'agency@example.test',
        website: 'https://agency.example.test',
        type: 'reseller',
        status: 'inactive',
        ownerId: cast.ids.ownerB,
      });
      expect(res.statusCode, res.body).toBe(201);
      const created = data(res);
      expect(created).toMatchObject({ name: 'Anna’s Agency', type: 'standard', status: 'active', ownerId: cast.ids.ownerA });
      expect(await record(created._id)).toMatchObject({ type: 'standard', status: 'active', ownerId: cast.ids.ownerA });
      expect(data(await send('ownerA', 'GET', `/api/partners/${created._id}`))).toEqual(created);

      const updated = await send('ownerA', 'PUT', `/api/partners/${created._id}`, { name: 'Anna’s Studio', type: 'agency', status: 'inactive', ownerId: cast.ids.ownerB }, 1);
      expect(updated.statusCode, updated.body).toBe(200);
      expect(await record(created._id)).toMatchObject({ name: 'Anna’s Studio', type: 'standard', status: 'active', ownerId: cast.ids.ownerA, version: 2 });

      const list = await send('ownerA', 'GET', '/api/partners?limit=100');
      expect(names(list)).toEqual(['Anna’s Studio']);
      const mine = await send('ownerA', 'GET', '/api/partners/my-partners');
      expect(names(mine)).toEqual(['Anna’s Studio']);
      expect(names(await send('partner', 'GET', '/api/partners/my-partners?limit=100'))).toContain('Partner');
      expect(names(await send('partner', 'GET', '/api/partners/my-partners?limit=100'))).not.toContain('Anna’s Studio');
      expect(data(await send('ownerA', 'GET', '/api/partners/stats'))).toMatchObject({ total: 1, by: { status: { active: 1 }, type: { standard: 1 } } });

      expect((await send('ownerA', 'DELETE', `/api/partners/${created._id}`, undefined, 2)).statusCode).toBe(200);
      expect(await record(created._id)).toBeUndefined();
    });

    it('answers a bad address, web address or name as field errors', async () => {
      const res = await send('ownerA', 'POST', '/api/partners', { name: ' ', email: 'not an address', website: 'javascript:alert(1)' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path).toSorted()).toEqual(['body.email', 'body.name', 'body.website']);
      expect(await test.store.db.select().from(partners).where(eq(partners.ownerId, cast.ids.ownerA))).toEqual([]);
    });

    it('lets an admin keep every record, with its type and status', async () => {
      const nameless = await send('admin', 'POST', '/api/partners', { name: 'Whose?' });
      expect(nameless.json().errors).toEqual([{ path: 'body.ownerId', message: messages.required.message }]);
      const res = await send('admin', 'POST', '/api/partners', { name: 'Reseller GmbH', type: 'reseller', status: 'inactive', ownerId: cast.ids.ownerB });
      expect(res.statusCode, res.body).toBe(201);
      const created = data(res);
      expect(await record(created._id)).toMatchObject({ type: 'reseller', status: 'inactive', ownerId: cast.ids.ownerB });
      expect(names(await send('admin', 'GET', `/api/partners?type=reseller&ownerId=${cast.ids.ownerB}`))).toEqual(['Reseller GmbH']);
      expect(names(await send('ownerB', 'GET', '/api/partners?limit=100'))).toContain('Reseller GmbH');
      expect(names(await send('ownerA', 'GET', '/api/partners?limit=100'))).not.toContain('Reseller GmbH');
      const changed = await send('admin', 'PUT', `/api/partners/${created._id}`, { type: 'agency', status: 'active' }, 1);
      expect(data(changed)).toMatchObject({ type: 'agency', status: 'active', version: 2 });
      expect(data(await send('admin', 'GET', '/api/partners/stats')).by.type.agency).toBeGreaterThanOrEqual(1);
      // An admin's own records are theirs in /my-partners; everyone's in the list.
      expect(names(await send('admin', 'GET', '/api/partners/my-partners'))).toEqual(['Ada’s record']);
      expect((await send('admin', 'DELETE', `/api/partners/${created._id}`, undefined, 2)).statusCode).toBe(200);
    });
  });

  describe('API keys', () => {
    it('shows the whole key once, then only its prefix; a new key replaces it; toggle and delete', async () => {
      expect((await send('ownerB', 'GET', keyUrl())).statusCode).toBe(404);
      const made = await send('ownerB', 'POST', keyUrl(), { prefix: 'skp_chosen', keyHash: 'f'.repeat(64), key: 'skp_mine', isActive: true });
      expect(made.statusCode, made.body).toBe(201);
      const first = data(made);
      expect(first.key).toMatch(/^skp_[\w-]{40,}$/);
      expect(first.prefix).toBe(first.key.slice(0, 12));
      const [row] = await keyRows();
      expect(row).toMatchObject({ keyHash: hashToken(first.key), prefix: first.prefix, isActive: true });
      expect(Object.values(row!)).not.toContain(first.key);

      const read = await send('ownerB', 'GET', keyUrl());
      expect(read.statusCode).toBe(200);
      expect(data(read)).toEqual({ ...first, key: undefined, version: 1 });
      expect(data(read)).not.toHaveProperty('key');
      expect(read.body).not.toContain(first.key);

      // An update cannot set the server's fields either.
      const updated = await send('ownerB', 'PUT', keyUrl(), { isActive: true, prefix: 'skp_chosen', keyHash: 'f'.repeat(64), key: 'skp_mine' }, 1);
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.body).not.toContain(first.key);
      expect(await keyRows()).toEqual([expect.objectContaining({ keyHash: hashToken(first.key), prefix: first.prefix, version: 2 })]);

      const off = await send('ownerB', 'PATCH', `${keyUrl()}/toggle`, undefined, 2);
      expect(off.statusCode, off.body).toBe(200);
      expect(data(off)).toMatchObject({ isActive: false, version: 3 });
      expect(off.json().message).toBe(messages.apiKeyDisabled.message);
      expect(off.body).not.toContain(first.key);
      expect(data(await send('ownerB', 'PATCH', `${keyUrl()}/toggle`, undefined, 3))).toMatchObject({ isActive: true, version: 4 });
      expect((await keyRows())[0]!.isActive).toBe(true);

      const again = await send('ownerB', 'POST', keyUrl(), {});
      expect(again.statusCode).toBe(201);
      const second = data(again);
      expect(second.key).not.toBe(first.key);
      expect(await keyRows()).toEqual([expect.objectContaining({ keyHash: hashToken(second.key), prefix: second.prefix })]);
      expect(JSON.stringify(await keyRows())).not.toContain(hashToken(first.key));

      // The team's settings flag reaches it too.
      expect(data(await send('memberB', 'GET', keyUrl())).prefix).toBe(second.prefix);
      expect((await send('memberB', 'DELETE', keyUrl(), undefined, data(await send('memberB', 'GET', keyUrl())).version)).statusCode).toBe(200);
      expect(await keyRows()).toEqual([]);
      expect((await send('ownerB', 'GET', keyUrl())).statusCode).toBe(404);
      expect((await send('ownerB', 'PATCH', `${keyUrl()}/toggle`, undefined, 1)).statusCode).toBe(404);
    });
  });
});
