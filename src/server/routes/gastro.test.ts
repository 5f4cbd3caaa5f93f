// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { data, seedCast, UNKNOWN_ID, type Cast, type Method } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { seedUser, seedWebsite } from '../../../tests/support/users';
import { LEVELS, type Level } from '../../contract/permissions';
import { orderTag } from '../../contract/order';
import { DEFAULT_ALLERGENS } from '../../contract/resources/gastro';
import { uuidv7 } from '../../contract/uuid';
import { gastroItems, media } from '../store/schema';

/*
 * Gastronomy menus on PGlite and PostgreSQL (spec §7 Gastro menus): the spec's paths with one id
 * meaning a website or a menu, categories and dishes in their order (2,000 dishes included), the
 * allergens of Regulation (EU) No 1169/2011, dishes naming only allergens of their website, and
 * every id of another website answering 404.
 */

type Headers = Record<string, string>;
type Entity = { _id: string; version: number } & Record<string, unknown>;
const BASE = '/api/cms/gastro-menus';
const ids = (rows: Entity[]) => rows.map((row) => row._id);
/** The field a 400 names first. */
const fieldOf = (res: LightMyRequestResponse) => (res.json().errors as { path: string }[] | undefined)?.[0]?.path;

describe.each(storeKinds)('gastronomy menus (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  const call = (headers: Headers, method: Method, url: string, body?: object, ifMatch?: string | number): Promise<LightMyRequestResponse> =>
    test.app.inject({ method, url, payload: body, headers: { ...headers, ...(ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` }) } });
  const owner = () => cast.headers.ownerA;
  const made = async (url: string, body: object, headers = owner()) => {
    const res = await call(headers, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as Entity;
  };
  const listed = async (url: string, headers = owner()) => {
    const res = await call(headers, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return data(res) as Entity[];
  };
  /** A picture in a website's library, with its thumbnail as an upload makes one (none for a picture small enough). */
  const picture = async (websiteId: string, thumbnail = true) =>
    (
      await test.store.db
        .insert(media)
        .values({ websiteId, fileName: 'dish.webp', mimetype: 'image/webp', size: 10, storageKey: `images/${uuidv7()}.webp`, thumbKey: thumbnail ? `images/${uuidv7()}.webp` : null })
        .returning()
    )[0]!;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
  });
  afterAll(() => test.app.close());

  describe('menus', () => {
    it('live at /gastro-menus/{websiteId}; the same path with a menu’s id reads, changes and deletes it', async () => {
      const lunch = await made(`${BASE}/${cast.site.A}`, { name: 'Lunch', status: 'published' });
      expect(lunch).toMatchObject({ id: lunch._id, name: 'Lunch', status: 'published', language: 'de', description: '' });
      const dinner = await made(`${BASE}/${cast.site.A}`, { name: 'Dinner' });
      expect(ids(await listed(`${BASE}/${cast.site.A}?sortBy=name`))).toEqual([dinner._id, lunch._id]);
      expect(data(await call(owner(), 'GET', `${BASE}/${lunch._id}`))).toMatchObject({ _id: lunch._id, name: 'Lunch' });
      const changed = await call(owner(), 'PUT', `${BASE}/${dinner._id}`, { description: 'From six' }, dinner.version);
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await call(owner(), 'PUT', `${BASE}/${dinner._id}`, { name: 'Stale' }, dinner.version)).statusCode).toBe(409);
      const stats = data(await call(owner(), 'GET', `${BASE}/${cast.site.A}/stats`));
      expect(stats).toMatchObject({ total: 2, by: { status: { published: 1, draft: 1 } } });
      expect((await call(owner(), 'DELETE', `${BASE}/${dinner._id}`, undefined, dinner.version + 1)).statusCode).toBe(200);
      expect((await call(owner(), 'GET', `${BASE}/${dinner._id}`)).statusCode).toBe(404);
    });
  });

  describe('categories and dishes of a menu', () => {
    let menu: Entity;
    let other: Entity;
    let categories: Entity[] = [];
    let dishes: Entity[] = [];
    let foreign: { menu: Entity; category: Entity; allergen: Entity; dish: Entity };

    beforeAll(async () => {
      menu = await made(`${BASE}/${cast.site.A}`, { name: 'Card', status: 'published' });
      other = await made(`${BASE}/${cast.site.A}`, { name: 'Drinks' });
      categories = [];
      for (const name of ['Starters', 'Mains', 'Desserts']) categories.push(await made(`${BASE}/${menu._id}/categories`, { name }));
      dishes = [];
      for (const name of ['Soup', 'Schnitzel', 'Strudel']) dishes.push(await made(`${BASE}/${menu._id}/items`, { name, price: 990 }));
      const ownerB = cast.headers.ownerB;
      const menuB = await made(`${BASE}/${cast.site.B}`, { name: 'B’s' }, ownerB);
      foreign = {
        menu: menuB,
        category: await made(`${BASE}/${menuB._id}/categories`, { name: 'B' }, ownerB),
        allergen: await made(`${BASE}/${cast.site.B}/allergens`, { identifier: 'Z', name: 'B’s' }, ownerB),
        dish: await made(`${BASE}/${menuB._id}/items`, { name: 'B' }, ownerB),
      };
    });

    it('list new categories and dishes last, each with `id` and its menu', async () => {
      expect(await listed(`${BASE}/${menu._id}/categories`)).toMatchObject(categories.map((category, position) => ({ _id: category._id, id: category._id, position, menuId: menu._id })));
      expect(await listed(`${BASE}/${menu._id}/items`)).toMatchObject(dishes.map((dish, position) => ({ _id: dish._id, position, menuId: menu._id })));
      expect(await listed(`${BASE}/${other._id}/items`)).toEqual([]);
    });

    it.each([
      ['categories', 'categories', () => categories, () => foreign.category],
      ['items', 'items', () => dishes, () => foreign.dish],
    ] as const)('reorder %s in one call from the order they were made from, refusing a foreign or missing id', async (path, field, rows, foreignRow) => {
      const order = `${BASE}/${menu._id}/${path}/order`;
      const before = ids(rows());
      const moved = [before[2]!, before[0]!, before[1]!];
      expect((await call(owner(), 'PUT', order, { [field]: moved })).statusCode).toBe(428);
      for (const wrong of [before.slice(1), [before[0]!, before[0]!, before[1]!], [foreignRow()._id, before[0]!, before[1]!], [...before, foreignRow()._id]]) {
        const res = await call(owner(), 'PUT', order, { [field]: wrong }, orderTag(before));
        expect(res.statusCode, JSON.stringify(wrong)).toBe(400);
        expect(fieldOf(res)).toBe(`body.${field}`);
      }
      const res = await call(owner(), 'PUT', order, { [field]: moved }, orderTag(before));
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(await listed(`${BASE}/${menu._id}/${path}`))).toEqual(moved);
      // Made from the order before: someone else's move came first.
      const stale = await call(owner(), 'PUT', order, { [field]: before }, orderTag(before));
      expect(stale.statusCode).toBe(409);
      expect(stale.json().data).toEqual({ [field]: moved });
      // Another menu's order is not this one's, even with its ids.
      expect((await call(owner(), 'PUT', `${BASE}/${other._id}/${path}/order`, { [field]: moved }, orderTag([]))).statusCode).toBe(400);
    });

    it('keep a dish’s price in whole cents and its category within its own menu', async () => {
      const main = categories.find((category) => category.name === 'Mains')!;
      const dish = await made(`${BASE}/${menu._id}/items`, { name: 'Goulash', price: 1450, currency: 'eur', categoryId: main._id });
      expect(dish).toMatchObject({ price: 1450, currency: 'EUR', categoryId: main._id, available: true, allergenIds: [], thumbUrl: null });
      const fraction = await call(owner(), 'POST', `${BASE}/${menu._id}/items`, { name: 'Half', price: 14.5 });
      expect([fraction.statusCode, fieldOf(fraction)]).toEqual([400, 'body.price']);
      const drinks = await made(`${BASE}/${other._id}/categories`, { name: 'Wine' });
      for (const categoryId of [drinks._id, foreign.category._id, UNKNOWN_ID]) {
        const res = await call(owner(), 'POST', `${BASE}/${menu._id}/items`, { name: 'Misplaced', categoryId });
        expect([res.statusCode, fieldOf(res)], categoryId).toEqual([400, 'body.categoryId']);
        const moved = await call(owner(), 'PUT', `${BASE}/items/${dish._id}`, { categoryId }, dish.version);
        expect([moved.statusCode, fieldOf(moved)], categoryId).toEqual([400, 'body.categoryId']);
      }
      // Filters and search of spec §7.
      const query = async (q: string) => ids(await listed(`${BASE}/${menu._id}/items?${q}`));
      expect(await query(`categoryId=${main._id}`)).toEqual([dish._id]);
      const off = await call(owner(), 'PUT', `${BASE}/items/${dish._id}`, { available: false }, dish.version);
      expect(off.statusCode, off.body).toBe(200);
      expect(await query('available=false')).toEqual([dish._id]);
      expect(await query('search=gOUL')).toEqual([dish._id]);
      expect(await query('page=2&limit=2')).toHaveLength(2);
      // Deleting the category leaves its dishes, without one.
      expect((await call(owner(), 'DELETE', `${BASE}/categories/${main._id}`, undefined, main.version)).statusCode).toBe(200);
      expect(data(await call(owner(), 'GET', `${BASE}/items/${dish._id}`))).toMatchObject({ categoryId: null, menuId: menu._id, name: 'Goulash' });
      categories = categories.filter((category) => category._id !== main._id);
    });

    it('show a dish’s picture from the library by its thumbnail (the picture where it has none), cleared with the picture', async () => {
      const shot = await picture(cast.site.A);
      const dish = await made(`${BASE}/${menu._id}/items`, { name: 'Pictured', mediaId: shot.id });
      // A list of dishes on a phone loads the small file, not the photo.
      expect(dish.thumbUrl).toBe(`/api/files/${shot.thumbKey}`);
      const small = await picture(cast.site.A, false);
      const plain = await call(owner(), 'PUT', `${BASE}/items/${dish._id}`, { mediaId: small.id }, dish.version);
      expect(data(plain)).toMatchObject({ thumbUrl: `/api/files/${small.storageKey}` });
      const back = await call(owner(), 'PUT', `${BASE}/items/${dish._id}`, { mediaId: shot.id }, (data(plain) as Entity).version);
      expect(back.statusCode).toBe(200);
      const theirs = await picture(cast.site.B);
      const res = await call(owner(), 'POST', `${BASE}/${menu._id}/items`, { name: 'Theirs', mediaId: theirs.id });
      expect([res.statusCode, fieldOf(res)]).toEqual([400, 'body.mediaId']);
      expect((await call(owner(), 'DELETE', `/api/cms/media/${cast.site.A}/media/${shot.id}`, undefined, 1)).statusCode).toBe(200);
      expect(data(await call(owner(), 'GET', `${BASE}/items/${dish._id}`))).toMatchObject({ mediaId: null, thumbUrl: null });
    });

    it('answer 404 for every id of another website, and for unknown ones, on every route', async () => {
      const siteB = cast.site.B;
      const { menu: menuB, category, allergen, dish } = foreign;
      const tries: [Method, string, object?, (string | number)?][] = [
        ['GET', `${BASE}/${menuB._id}`],
        ['PUT', `${BASE}/${menuB._id}`, { name: 'X' }, 1],
        ['DELETE', `${BASE}/${menuB._id}`, undefined, 1],
        ['GET', `${BASE}/${siteB}/stats`],
        ['POST', `${BASE}/${siteB}`, { name: 'X' }],
        ['GET', `${BASE}/${menuB._id}/categories`],
        ['POST', `${BASE}/${menuB._id}/categories`, { name: 'X' }],
        ['PUT', `${BASE}/${menuB._id}/categories/order`, { categories: [category._id] }, orderTag([category._id])],
        ['GET', `${BASE}/categories/${category._id}`],
        ['PUT', `${BASE}/categories/${category._id}`, { name: 'X' }, 1],
        ['DELETE', `${BASE}/categories/${category._id}`, undefined, 1],
        ['GET', `${BASE}/${siteB}/allergens`],
        ['POST', `${BASE}/${siteB}/allergens`, { name: 'X' }],
        ['GET', `${BASE}/allergens/${allergen._id}`],
        ['PUT', `${BASE}/allergens/${allergen._id}`, { name: 'X' }, 1],
        ['DELETE', `${BASE}/allergens/${allergen._id}`, undefined, 1],
        ['POST', `${BASE}/${siteB}/allergens/default`, {}],
        ['GET', `${BASE}/${menuB._id}/items`],
        ['POST', `${BASE}/${menuB._id}/items`, { name: 'X' }],
        ['PUT', `${BASE}/${menuB._id}/items/order`, { items: [dish._id] }, orderTag([dish._id])],
        ['GET', `${BASE}/items/${dish._id}`],
        ['PUT', `${BASE}/items/${dish._id}`, { name: 'X' }, 1],
        ['DELETE', `${BASE}/items/${dish._id}`, undefined, 1],
        ['POST', `${BASE}/${siteB}/items/cleanup-allergens`, {}],
      ];
      // "Not found", not "no such endpoint": the route is there, the id is not the caller's.
      const unknownRecord = async (method: Method, url: string, body?: object, ifMatch?: string | number) => {
        const res = await call(owner(), method, url, body, ifMatch);
        expect([res.statusCode, res.json().message], `${method} ${url}`).toEqual([404, 'Not found']);
      };
      for (const [method, url, body, ifMatch] of tries) {
        await unknownRecord(method, url, body, ifMatch);
        await unknownRecord(method, url.replaceAll(siteB, UNKNOWN_ID).replace(/[0-9a-f-]{36}(?=\/|$)/, UNKNOWN_ID), body, ifMatch);
        // The same call as B's owner reaches the route: only the website differs.
        if (method === 'GET') expect((await call(cast.headers.ownerB, method, url)).statusCode, `B: ${url}`).toBe(200);
      }
      // A website where a menu belongs, and a menu where a website belongs: unknown too.
      await unknownRecord('GET', `${BASE}/${cast.site.A}/categories`);
      await unknownRecord('GET', `${BASE}/${menu._id}/allergens`);
      // B's rows are untouched.
      expect(data(await call(cast.headers.ownerB, 'GET', `${BASE}/items/${dish._id}`))).toMatchObject({ name: 'B', version: 1 });
    });
  });

  describe('allergens', () => {
    it('keep their identifier upper-case, unique per website whatever its case; any number go without one', async () => {
      const site = cast.site.A;
      const mustard = await made(`${BASE}/${site}/allergens`, { identifier: ' m ', name: 'Mustard' });
      expect(mustard.identifier).toBe('M');
      for (const identifier of ['M', 'm']) {
        const res = await call(owner(), 'POST', `${BASE}/${site}/allergens`, { identifier, name: 'Again' });
        expect([res.statusCode, fieldOf(res)]).toEqual([400, 'body.identifier']);
      }
      const bad = await call(owner(), 'POST', `${BASE}/${site}/allergens`, { identifier: 'A-1', name: 'Bad' });
      expect([bad.statusCode, fieldOf(bad)]).toEqual([400, 'body.identifier']);
      expect((await made(`${BASE}/${cast.site.B}/allergens`, { identifier: 'm', name: 'B’s mustard' }, cast.headers.ownerB)).identifier).toBe('M');
      const plain = [await made(`${BASE}/${site}/allergens`, { name: 'Garlic' }), await made(`${BASE}/${site}/allergens`, { name: 'Onion' })];
      expect(plain.map((row) => row.identifier)).toEqual([null, null]);
      const renamed = await call(owner(), 'PUT', `${BASE}/allergens/${plain[0]!._id}`, { identifier: 'm' }, 1);
      expect([renamed.statusCode, fieldOf(renamed)]).toEqual([400, 'body.identifier']);
      for (const row of [mustard, ...plain]) expect((await call(owner(), 'DELETE', `${BASE}/allergens/${row._id}`, undefined, row.version)).statusCode).toBe(200);
    });

    it('POST …/allergens/default makes the 14 of Annex II with Austrian letters in English and German; again, nothing', async () => {
      const site = (await seedWebsite(test.store, { ownerId: cast.ids.ownerA, name: 'Wirtshaus' })).id;
      const url = `${BASE}/${site}/allergens/default`;
      // One the website already has, by another case of its letter: kept, not doubled.
      const own = await made(`${BASE}/${site}/allergens`, { identifier: 'g', name: 'Dairy' });
      const first = await call(owner(), 'POST', url, {});
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().message).toBe('13 allergens added');
      const legend = data(first) as (Entity & { identifier: string; name: string; content: Record<string, { name: string }> })[];
      expect(legend.map((row) => row.identifier)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'L', 'M', 'N', 'O', 'P', 'R']);
      expect(legend.find((row) => row.identifier === 'G')).toMatchObject({ _id: own._id, name: 'Dairy' });
      expect(legend.find((row) => row.identifier === 'A')).toMatchObject({ name: 'Cereals containing gluten', content: { de: { name: 'Glutenhaltiges Getreide' } }, version: 1 });
      const second = await call(owner(), 'POST', url, {});
      expect(second.json().message).toBe('All standard allergens are already there');
      expect(data(second)).toEqual(legend);
      // Two at once on a website that has none: still one of each.
      const fresh = (await seedWebsite(test.store, { ownerId: cast.ids.ownerA })).id;
      const both = await Promise.all([call(owner(), 'POST', `${BASE}/${fresh}/allergens/default`, {}), call(owner(), 'POST', `${BASE}/${fresh}/allergens/default`, {})]);
      expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
      const made14 = await listed(`${BASE}/${fresh}/allergens?limit=100`);
      expect(made14.map((row) => row.identifier)).toEqual(DEFAULT_ALLERGENS.map((allergen) => allergen.identifier));
    });

    it('stay only allergens of the website on a dish; deleting one takes it out of every dish at once; cleanup takes leftovers', async () => {
      const site = (await seedWebsite(test.store, { ownerId: cast.ids.ownerA, name: 'Bistro' })).id;
      const menu = await made(`${BASE}/${site}`, { name: 'Bistro' });
      const [gluten, eggs, milk] = [
        await made(`${BASE}/${site}/allergens`, { identifier: 'A', name: 'Gluten' }),
        await made(`${BASE}/${site}/allergens`, { identifier: 'C', name: 'Eggs' }),
        await made(`${BASE}/${site}/allergens`, { identifier: 'G', name: 'Milk' }),
      ];
      const theirs = (await listed(`${BASE}/${cast.site.B}/allergens`, cast.headers.ownerB))[0]!;
      for (const allergenIds of [[gluten!._id, theirs._id], [UNKNOWN_ID]]) {
        const res = await call(owner(), 'POST', `${BASE}/${menu._id}/items`, { name: 'Wrong', allergenIds });
        expect([res.statusCode, fieldOf(res)]).toEqual([400, 'body.allergenIds']);
      }
      const pancake = await made(`${BASE}/${menu._id}/items`, { name: 'Pancake', allergenIds: [eggs!._id, gluten!._id, milk!._id, eggs!._id] });
      expect(pancake.allergenIds).toEqual([eggs!._id, gluten!._id, milk!._id]);
      const salad = await made(`${BASE}/${menu._id}/items`, { name: 'Salad', allergenIds: [] });
      const omelette = await made(`${BASE}/${menu._id}/items`, { name: 'Omelette', allergenIds: [milk!._id] });
      const refused = await call(owner(), 'PUT', `${BASE}/items/${salad._id}`, { allergenIds: [theirs._id] }, salad.version);
      expect([refused.statusCode, fieldOf(refused)]).toEqual([400, 'body.allergenIds']);

      expect((await call(owner(), 'DELETE', `${BASE}/allergens/${eggs!._id}`, undefined, eggs!.version)).statusCode).toBe(200);
      const get = async (dish: Entity) => data(await call(owner(), 'GET', `${BASE}/items/${dish._id}`)) as Entity;
      expect(await get(pancake)).toMatchObject({ allergenIds: [gluten!._id, milk!._id], version: pancake.version + 1 });
      expect(await get(omelette)).toMatchObject({ allergenIds: [milk!._id], version: omelette.version });

      // Leftovers a delete did not take (an import, an older server): cleanup drops them, keeping the order.
      await test.store.db
        .update(gastroItems)
        .set({ allergenIds: sql`array[${UNKNOWN_ID}::uuid, ${milk!._id}::uuid, ${theirs._id}::uuid]` })
        .where(eq(gastroItems.id, omelette._id));
      const cleanup = `${BASE}/${site}/items/cleanup-allergens`;
      const res = await call(owner(), 'POST', cleanup, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Deleted allergens removed from 1 dish');
      expect(data(res)).toMatchObject({ changed: 1, items: [{ _id: omelette._id, allergenIds: [milk!._id], version: omelette.version + 1 }] });
      expect(data(await call(owner(), 'POST', cleanup, {}))).toEqual({ changed: 0, items: [] });
      expect((await get(pancake)).allergenIds).toEqual([gluten!._id, milk!._id]);
    });
  });

  describe('a menu of 2,000 dishes', () => {
    it('lists in one page in its order and reorders in one call', async () => {
      const menu = await made(`${BASE}/${cast.site.A}`, { name: 'Everything' });
      const now = new Date();
      const rows = Array.from({ length: 2000 }, (_, position) => ({
        id: uuidv7(now.getTime() + position),
        websiteId: cast.site.A,
        menuId: menu._id,
        name: `Dish ${position}`,
        price: position,
        position,
      }));
      await test.store.db.insert(gastroItems).values(rows);
      const url = `${BASE}/${menu._id}/items?limit=5000`;
      const first = await call(owner(), 'GET', url);
      expect(first.json().pagination).toMatchObject({ totalItems: 2000, totalPages: 1 });
      const order = ids(data(first));
      expect(order).toEqual(rows.map((row) => row.id));
      const reversed = order.toReversed();
      const res = await call(owner(), 'PUT', `${BASE}/${menu._id}/items/order`, { items: reversed }, orderTag(order));
      expect(res.statusCode, res.body).toBe(200);
      const after = data(await call(owner(), 'GET', url)) as (Entity & { position: number })[];
      expect(ids(after)).toEqual(reversed);
      expect(after.map((row) => row.position)).toEqual(rows.map((row) => row.position));
      // A dish made now comes after all 2,000.
      expect((await made(`${BASE}/${menu._id}/items`, { name: 'Last' })).position).toBe(2000);
    });
  });

  describe('a team role’s gastro level', () => {
    it('lets view read, edit change and clean up, manage make, delete and add the standard allergens', async () => {
      const menu = await made(`${BASE}/${cast.site.A}`, { name: 'Roles' });
      for (const level of LEVELS) {
        const user = await seedUser(test.store, {
          type: 'teammember',
          email: `gastro-${level}@example.test`,
          username: `gastro-${level}`,
          password: 'member password 1',
          websiteId: cast.site.A,
          role: { name: `Gastro ${level}`, permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: level } },
        });
        const as = bearer(await tokenFor(test.store, user.id));
        const allowed = (need: Level) => LEVELS.indexOf(level) >= LEVELS.indexOf(need);
        const expectCall = async (need: Level, ok: number, method: Method, url: string, body?: object, ifMatch?: number) =>
          expect((await call(as, method, url, body, ifMatch)).statusCode, `${level} ${method} ${url}`).toBe(allowed(need) ? ok : 403);
        const dish = await made(`${BASE}/${menu._id}/items`, { name: 'Dish' });
        await expectCall('view', 200, 'GET', `${BASE}/${menu._id}/items`);
        await expectCall('view', 200, 'GET', `${BASE}/${menu._id}`);
        await expectCall('edit', 200, 'PUT', `${BASE}/items/${dish._id}`, { price: 100 }, 1);
        await expectCall('edit', 200, 'POST', `${BASE}/${cast.site.A}/items/cleanup-allergens`, {});
        await expectCall('manage', 201, 'POST', `${BASE}/${menu._id}/items`, { name: 'New' });
        await expectCall('manage', 200, 'POST', `${BASE}/${cast.site.A}/allergens/default`, {});
        await expectCall('manage', 200, 'DELETE', `${BASE}/items/${dish._id}`, undefined, allowed('edit') ? 2 : 1);
      }
      // The pages module's level opens nothing here.
      expect((await call(cast.headers.plainA, 'GET', `${BASE}/${cast.site.A}`)).statusCode).toBe(403);
    });
  });

  describe('the delivery API', () => {
    it('shows the published menus whole, in their order, with the legend of the allergens used in the language asked for', async () => {
      const key = data(await call(cast.headers.ownerB, 'POST', `/api/websites/${cast.site.B}/api-key`, {})).key as string;
      const deliver = (url: string) => test.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
      const as = cast.headers.ownerB;
      const site = cast.site.B;
      const legend = data(await call(as, 'POST', `${BASE}/${site}/allergens/default`, {})) as (Entity & { identifier: string })[];
      const letter = (identifier: string) => legend.find((row) => row.identifier === identifier)!._id;
      const menu = await made(`${BASE}/${site}`, { name: 'Speisekarte', status: 'published', language: 'de' }, as);
      const draft = await made(`${BASE}/${site}`, { name: 'Draft', language: 'de' }, as);
      await made(`${BASE}/${draft._id}/items`, { name: 'Secret' }, as);
      const mains = await made(`${BASE}/${menu._id}/categories`, { name: 'Hauptspeisen' }, as);
      const starters = await made(`${BASE}/${menu._id}/categories`, { name: 'Vorspeisen' }, as);
      await call(as, 'PUT', `${BASE}/${menu._id}/categories/order`, { categories: [starters._id, mains._id] }, orderTag([mains._id, starters._id]));
      await made(`${BASE}/${menu._id}/items`, { name: 'Schnitzel', price: 1890, categoryId: mains._id, allergenIds: [letter('A'), letter('C')] }, as);
      await made(`${BASE}/${menu._id}/items`, { name: 'Suppe', price: 590, categoryId: starters._id, available: false }, as);
      await made(`${BASE}/${menu._id}/items`, { name: 'Brot', price: 300, allergenIds: [letter('A')] }, as);

      const res = await deliver('/api/public/gastro-menus');
      expect(res.statusCode, res.body).toBe(200);
      const menus = res.json().data;
      expect(menus).toHaveLength(1);
      expect(menus[0]).toMatchObject({
        id: menu._id,
        name: 'Speisekarte',
        language: 'de',
        categories: [
          { id: starters._id, name: 'Vorspeisen', items: [{ name: 'Suppe', price: 590, currency: 'EUR', available: false, allergens: [], image: null }] },
          { id: mains._id, name: 'Hauptspeisen', items: [{ name: 'Schnitzel', price: 1890, allergens: [letter('A'), letter('C')] }] },
        ],
        items: [{ name: 'Brot', allergens: [letter('A')] }],
        allergens: [
          { id: letter('A'), identifier: 'A', name: 'Glutenhaltiges Getreide' },
          { id: letter('C'), identifier: 'C', name: 'Eier' },
        ],
      });
      expect(data(await deliver('/api/public/gastro-menus?language=en'))).toEqual([]);
      const english = data(await deliver(`/api/public/gastro-menus/${menu._id}?language=en`));
      expect(english.allergens.map((row: { name: string }) => row.name)).toEqual(['Cereals containing gluten', 'Eggs']);
      for (const hidden of [draft._id, UNKNOWN_ID, 'not-an-id']) expect((await deliver(`/api/public/gastro-menus/${hidden}`)).statusCode).toBe(404);
      // Another website's key sees none of these.
      const keyA = data(await call(owner(), 'POST', `/api/websites/${cast.site.A}/api-key`, {})).key as string;
      const fromA = await test.app.inject({ method: 'GET', url: `/api/public/gastro-menus/${menu._id}`, headers: { 'x-api-key': keyA } });
      expect(fromA.statusCode).toBe(404);
    });
  });
});
