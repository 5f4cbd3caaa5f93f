// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, UNKNOWN_ID, type Cast } from '../../../tests/support/cast';
import { seedMember, type Principal } from '../../../tests/support/principals';
import { storeKinds } from '../../../tests/support/store';
import { multipartFile, png } from '../../../tests/support/uploads';
import { pruneExpired } from '../store/maintenance';
import { recycleBin, revisions } from '../store/schema';

/*
 * Issue 20, the recycle bin: a delete keeps what it removed (with its children) for 30 days, a
 * restore brings it back as it was, purging needs the right to delete it, and the delivery API
 * never shows a deleted record.
 */

type Bin = { _id: string; resource: string; title: string; children: number; actorName: string };

describe.each(storeKinds)('the recycle bin (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let viewer: Principal;
  let manager: Principal;
  let key: string;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    const cmsOnly = { cms: true, seo: false, team: false, settings: false };
    viewer = await seedMember(test.store, cast.site.A, 'gastro view', { permissions: cmsOnly, cmsPermissions: { gastro: 'view' } });
    manager = await seedMember(test.store, cast.site.A, 'gastro manage', { permissions: cmsOnly, cmsPermissions: { gastro: 'manage' } });
    send = sender(test.app, () => ({ ...cast.headers, memberA: viewer.headers, plainA: manager.headers }));
    key = data(await send('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`, {})).key as string;
  });
  afterAll(() => test.app.close());

  const binOf = (site: 'A' | 'B' = 'A') => `/api/websites/${cast.site[site]}/recycle-bin`;
  const made = async (url: string, body: object) => {
    const res = await send('ownerA', 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number };
  };
  /** A published food menu with two categories and three dishes (the third in the second category). */
  async function restaurantMenu(name: string) {
    const menu = await made(`/api/cms/gastro-menus/${cast.site.A}`, { name, status: 'published' });
    const starters = await made(`/api/cms/gastro-menus/${menu._id}/categories`, { name: 'Starters' });
    const mains = await made(`/api/cms/gastro-menus/${menu._id}/categories`, { name: 'Mains' });
    const dishes = [
      await made(`/api/cms/gastro-menus/${menu._id}/items`, { name: 'Bruschetta', price: 650, categoryId: starters._id }),
      await made(`/api/cms/gastro-menus/${menu._id}/items`, { name: 'Soup', price: 550, categoryId: starters._id }),
      await made(`/api/cms/gastro-menus/${menu._id}/items`, { name: 'Lasagne', price: 1290, categoryId: mains._id }),
    ];
    return { menu, categories: [starters, mains], dishes };
  }
  const dishesOf = async (menuId: string) => data(await send('ownerA', 'GET', `/api/cms/gastro-menus/${menuId}/items?limit=100`)) as { _id: string; name: string; categoryId: string | null }[];
  const delivered = async () => {
    const res = await test.app.inject({ method: 'GET', url: '/api/public/gastro-menus', headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };
  const entriesOf = async (who: Parameters<typeof send>[0], url = binOf()) => {
    const res = await send(who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return data(res) as Bin[];
  };
  const binEntryFor = async (title: string, who: Parameters<typeof send>[0] = 'ownerA') => (await entriesOf(who)).find((entry) => entry.title === title)!;

  it('keeps a deleted food menu with its categories and dishes as one entry; the delivery API shows none of it; a restore brings all back as it was', async () => {
    const { menu, categories, dishes } = await restaurantMenu('Summer card');
    expect(await delivered()).toContain('Bruschetta');
    const before = await dishesOf(menu._id);

    expect((await send('ownerA', 'DELETE', `/api/cms/gastro-menus/${menu._id}`, undefined, 1)).statusCode).toBe(200);
    expect(await delivered()).not.toContain('Summer card');
    expect(await delivered()).not.toContain('Bruschetta');
    const entry = await binEntryFor('Summer card');
    expect(entry).toMatchObject({ resource: 'gastroMenus', title: 'Summer card', children: 5 });
    expect(entry.actorName).not.toBe('');

    const res = await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toEqual({ resource: 'gastroMenus', recordId: menu._id, restored: 6 });
    expect(res.json().message).toBe('Summer card restored');
    // The same ids, the dishes in their order and in their categories.
    expect(await dishesOf(menu._id)).toEqual(before);
    expect(before.map((dish) => dish._id)).toEqual(dishes.map((dish) => dish._id));
    expect(before.map((dish) => dish.categoryId)).toEqual([categories[0]!._id, categories[0]!._id, categories[1]!._id]);
    const restoredCategories = data(await send('ownerA', 'GET', `/api/cms/gastro-menus/${menu._id}/categories`)) as { _id: string }[];
    expect(restoredCategories.map((category) => category._id)).toEqual(categories.map((category) => category._id));
    expect(await delivered()).toContain('Bruschetta');
    expect((await entriesOf('ownerA')).some((one) => one._id === entry._id)).toBe(false);
  });

  it('restoring a category alone gives its dishes their category back', async () => {
    const { categories, menu } = await restaurantMenu('Category card');
    expect((await send('ownerA', 'DELETE', `/api/cms/gastro-menus/categories/${categories[0]!._id}`, undefined, 1)).statusCode).toBe(200);
    expect((await dishesOf(menu._id)).map((dish) => dish.categoryId)).toEqual([null, null, categories[1]!._id]);
    const entry = (await entriesOf('ownerA')).find((one) => one.resource === 'gastroCategories' && one.title === 'Starters')!;
    expect(entry.children).toBe(0);
    expect((await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {})).statusCode).toBe(200);
    expect((await dishesOf(menu._id)).map((dish) => dish.categoryId)).toEqual([categories[0]!._id, categories[0]!._id, categories[1]!._id]);
  });

  it('a dish whose menu was deleted after it says so (409), and nothing changes', async () => {
    const { menu, dishes } = await restaurantMenu('Gone card');
    await send('ownerA', 'DELETE', `/api/cms/gastro-menus/items/${dishes[0]!._id}`, undefined, 1);
    await send('ownerA', 'DELETE', `/api/cms/gastro-menus/${menu._id}`, undefined, 1);
    const entry = (await entriesOf('ownerA')).find((one) => one.resource === 'gastroItems' && one.title === 'Bruschetta')!;
    const res = await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe('Its food menu was deleted: restore that first.');
    const german = await test.app.inject({ method: 'POST', url: `${binOf()}/${entry._id}/restore`, headers: { ...cast.headers.ownerA, 'accept-language': 'de' }, payload: {} });
    expect(german.json().message).not.toBe(res.json().message);
    expect((await entriesOf('ownerA')).some((one) => one._id === entry._id)).toBe(true);
  });

  it('a slug taken since answers 409', async () => {
    const page = await made(`/api/cms/pages/${cast.site.A}`, { title: 'About', slug: 'about-us', content: '<p>x</p>' });
    await send('ownerA', 'DELETE', `/api/cms/pages/${cast.site.A}/${page._id}`, undefined, 1).then((res) => expect(res.statusCode, res.body).toBe(200));
    await made(`/api/cms/pages/${cast.site.A}`, { title: 'About again', slug: 'about-us', content: '<p>y</p>' });
    const entry = await binEntryFor('About');
    const res = await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toContain('cannot be restored');
  });

  it('a team member sees what their role lists; with view they can neither purge nor restore, with manage they can', async () => {
    const { menu } = await restaurantMenu('Members card');
    await send('ownerA', 'DELETE', `/api/cms/gastro-menus/${menu._id}`, undefined, 1);
    const page = await made(`/api/cms/pages/${cast.site.A}`, { title: 'Hidden page', slug: 'hidden-page', content: '<p>x</p>' });
    await send('ownerA', 'DELETE', `/api/cms/pages/${cast.site.A}/${page._id}`, undefined, 1);

    const seen = await entriesOf('memberA');
    expect(seen.some((one) => one.title === 'Members card')).toBe(true);
    expect(seen.some((one) => one.title === 'Hidden page')).toBe(false);
    const hidden = await binEntryFor('Hidden page');
    expect((await send('memberA', 'GET', `${binOf()}/${hidden._id}`)).statusCode).toBe(404);

    const entry = await binEntryFor('Members card', 'memberA');
    const purge = await send('memberA', 'DELETE', `${binOf()}/${entry._id}`, undefined, 1);
    expect(purge.statusCode, purge.body).toBe(403);
    expect((await send('memberA', 'POST', `${binOf()}/${entry._id}/restore`, {})).statusCode).toBe(403);
    expect((await entriesOf('ownerA')).some((one) => one._id === entry._id)).toBe(true);
    const [row] = await test.store.db.select().from(recycleBin).where(eq(recycleBin.id, entry._id));
    expect(await test.store.db.select().from(revisions).where(eq(revisions.tx, row!.tx))).toHaveLength(6);

    expect((await send('plainA', 'POST', `${binOf()}/${entry._id}/restore`, {})).statusCode).toBe(200);
    await send('ownerA', 'DELETE', `/api/cms/gastro-menus/${menu._id}`, undefined, 1);
    const again = await binEntryFor('Members card', 'plainA');
    expect((await send('plainA', 'DELETE', `${binOf()}/${again._id}`, undefined, 1)).statusCode).toBe(200);
    const [purged] = await test.store.db.select().from(recycleBin).where(eq(recycleBin.id, again._id));
    expect(purged).toBeUndefined();
  });

  it('another website’s entry is unknown (404), read or restored through this website', async () => {
    const other = await send('ownerB', 'POST', `/api/cms/gastro-menus/${cast.site.B}`, { name: 'B card' });
    await send('ownerB', 'DELETE', `/api/cms/gastro-menus/${data(other)._id}`, undefined, 1);
    const entry = (await entriesOf('ownerB', binOf('B'))).find((one) => one.title === 'B card')!;
    expect((await send('ownerA', 'GET', `${binOf()}/${entry._id}`)).statusCode).toBe(404);
    expect((await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {})).statusCode).toBe(404);
    expect((await send('ownerA', 'DELETE', `${binOf()}/${entry._id}`, undefined, 1)).statusCode).toBe(404);
    expect((await send('ownerA', 'GET', `${binOf('B')}`)).statusCode).toBe(404);
    expect((await send('ownerA', 'POST', `${binOf()}/${UNKNOWN_ID}/restore`, {})).statusCode).toBe(404);
  });

  it('keeps nothing that cannot come back: a record whose secret column is required (a team member’s password hash)', async () => {
    const required = (
      (await test.store.db.execute(
        sql.raw(`select c.relname as table_name, a.attname as column_name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        join pg_attribute a on a.attrelid = c.oid and a.attnotnull and a.attname = any (string_to_array(trim(both '{}' from split_part(encode(t.tgargs, 'escape'), '\\000', 1)), ','))
        where right(t.tgname, 10) = '_revisions'`),
      )) as unknown as { rows: { table_name: string; column_name: string }[] }
    ).rows;
    expect(required.map((one) => `${one.table_name}.${one.column_name}`).toSorted()).toEqual(['api_keys.key_hash', 'users.password_hash', 'webhooks.secret_encrypted']);
    const leaving = await seedMember(test.store, cast.site.A, 'leaving', { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: {} });
    const before = (await test.store.db.select().from(recycleBin)).length;
    const res = await send('ownerA', 'DELETE', `/api/team/members/${cast.site.A}/${leaving.userId}`, undefined, 1);
    expect(res.statusCode, res.body).toBe(200);
    expect((await test.store.db.select().from(recycleBin)).length).toBe(before);
  });

  it('purges entries after 30 days with their records, and not before', async () => {
    const menu = await made(`/api/cms/gastro-menus/${cast.site.A}`, { name: 'Old card' });
    await send('ownerA', 'DELETE', `/api/cms/gastro-menus/${menu._id}`, undefined, 1);
    const entry = await binEntryFor('Old card');
    const [row] = await test.store.db.select().from(recycleBin).where(eq(recycleBin.id, entry._id));
    const kept = async () => (await test.store.db.select().from(revisions).where(eq(revisions.tx, row!.tx))).filter((one) => one.action === 'delete').length;
    expect(await kept()).toBe(1);
    // Deleted 29 days before the job's now, then 31 (the sessions' own expiry is left alone by moving the entry, not the clock).
    const deletedAgo = (days: number) => test.store.db.update(recycleBin).set({ createdAt: new Date(Date.now() - days * 86_400_000) }).where(eq(recycleBin.id, entry._id));
    await deletedAgo(29);
    await pruneExpired(test.store.db, new Date());
    expect((await entriesOf('ownerA')).some((one) => one._id === entry._id)).toBe(true);
    await deletedAgo(31);
    await pruneExpired(test.store.db, new Date());
    expect((await entriesOf('ownerA')).some((one) => one._id === entry._id)).toBe(false);
    expect(await kept()).toBe(0);
  });

  it('a deleted picture comes back with its file and thumbnail; purged, or kept 30 days, its files are gone', async () => {
    const picture = async (name: string) => {
      const res = await send('ownerA', 'POST', `/api/cms/media/${cast.site.A}/upload`, multipartFile({ data: await png(), filename: name, contentType: 'image/png' }));
      expect(res.statusCode, res.body).toBe(201);
      return data(res) as { _id: string; url: string; thumbUrl: string };
    };
    const served = async ({ url, thumbUrl }: { url: string; thumbUrl: string }) =>
      Promise.all([url, thumbUrl].map(async (address) => (await test.app.inject({ method: 'GET', url: address })).statusCode));
    const deleted = async (shot: { _id: string }) => {
      expect((await send('ownerA', 'DELETE', `/api/cms/media/${cast.site.A}/media/${shot._id}`, undefined, 1)).statusCode).toBe(200);
      return (await entriesOf('ownerA')).find((one) => one.resource === 'media' && one.title === `${shot._id === terrace._id ? 'terrace' : 'garden'}.png`)!;
    };

    const terrace = await picture('terrace.png');
    expect(await served(terrace)).toEqual([200, 200]);
    const entry = await deleted(terrace);
    expect(await served(terrace)).toEqual([200, 200]);
    expect((await send('ownerA', 'POST', `${binOf()}/${entry._id}/restore`, {})).statusCode).toBe(200);
    expect(await served(data(await send('ownerA', 'GET', `/api/cms/media/${cast.site.A}/media/${terrace._id}`)) as typeof terrace)).toEqual([200, 200]);

    const again = await deleted(terrace);
    expect((await send('ownerA', 'DELETE', `${binOf()}/${again._id}`, undefined, 1)).statusCode).toBe(200);
    // Removed once the purge is committed, after its answer.
    await expect.poll(() => served(terrace)).toEqual([404, 404]);

    const garden = await picture('garden.png');
    const kept = await deleted(garden);
    await test.store.db.update(recycleBin).set({ createdAt: new Date(Date.now() - 29 * 86_400_000) }).where(eq(recycleBin.id, kept._id));
    test.app.forgetRecords(await pruneExpired(test.store.db, new Date()));
    expect(await served(garden)).toEqual([200, 200]);
    await test.store.db.update(recycleBin).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) }).where(eq(recycleBin.id, kept._id));
    test.app.forgetRecords(await pruneExpired(test.store.db, new Date()));
    await expect.poll(() => served(garden)).toEqual([404, 404]);
  });

  it('the admin area’s bin lists a deleted catalog record, for admins only, and restores it', async () => {
    const category = await send('admin', 'POST', '/api/categories', { name: 'Bakeries' });
    expect(category.statusCode, category.body).toBe(201);
    expect((await send('admin', 'DELETE', `/api/categories/${data(category)._id}`, undefined, 1)).statusCode).toBe(200);
    const entries = await entriesOf('admin', '/api/recycle-bin');
    const entry = entries.find((one) => one.title === 'Bakeries')!;
    expect(entry.resource).toBe('categories');
    // Only the admin area's: no website's records.
    expect(entries.some((one) => one.resource.startsWith('gastro'))).toBe(false);
    for (const who of ['ownerA', 'partner', 'memberA'] as const) expect((await send(who, 'GET', '/api/recycle-bin')).statusCode).toBe(403);
    expect((await send('ownerA', 'POST', `/api/recycle-bin/${entry._id}/restore`, {})).statusCode).toBe(403);
    expect((await send('admin', 'POST', `/api/recycle-bin/${entry._id}/restore`, {})).statusCode).toBe(200);
    expect((await send('admin', 'GET', `/api/categories/${data(category)._id}`)).statusCode).toBe(200);
  });
});
