// @vitest-environment node
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { data, seedCast, UNKNOWN_ID, type Cast, type Method } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { CMS_MODULES, LEVELS, type CmsModule, type Level } from '../../contract/permissions';
import { orderTag } from '../../contract/order';
import { uuidv7 } from '../../contract/uuid';
import { media } from '../store/schema';

/*
 * The CMS on the generic machinery, on PGlite and PostgreSQL: ordered children and their reorder
 * (ADR 012), menu rules, pictures linked from the media library, SEO per website, and the matrix
 * of every module × level a team role can hold (spec §6).
 */

type Headers = Record<string, string>;
const key = (module: CmsModule, level: Level) => `${module}:${level}`;

describe.each(storeKinds)('the CMS (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  const call = (headers: Headers, method: Method, url: string, body?: object, ifMatch?: string): Promise<LightMyRequestResponse> =>
    test.app.inject({ method, url, payload: body, headers: { ...headers, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) } });
  const owner = () => cast.headers.ownerA;
  const seoPath = () => `/api/seo/website/${cast.site.A}`;
  const made = async (url: string, body: object, headers = owner()) => {
    const res = await call(headers, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number } & Record<string, unknown>;
  };
  /** A picture in a website's library, as an upload would leave it. */
  const picture = async (websiteId: string) => {
    const [row] = await test.store.db
      .insert(media)
      .values({ websiteId, fileName: 'p.webp', mimetype: 'image/webp', size: 10, storageKey: `images/${uuidv7()}.webp`, thumbKey: `images/${uuidv7()}.webp` })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
  });
  afterAll(() => test.app.close());

  describe('ordered children: a menu’s items', () => {
    let menu = '';
    let items: string[] = [];
    const base = () => `/api/cms/menus/${cast.site.A}/menu/${menu}`;
    const listed = async () => (data(await call(owner(), 'GET', `${base()}/items?limit=100`)) as { _id: string; id: string; position: number }[]).map((item) => item._id);

    beforeAll(async () => {
      menu = (await made(`/api/cms/menus/${cast.site.A}`, { name: 'Header', location: 'header' }))._id;
      items = [];
      for (const label of ['Home', 'Menu', 'Contact']) items.push((await made(`${base()}/items`, { label, url: `/${label.toLowerCase()}` }))._id);
    });

    it('lists new items last, each with `id` from `_id` (spec §3) and its menu', async () => {
      const res = await call(owner(), 'GET', `${base()}/items`);
      expect(res.json().data).toMatchObject(items.map((id, position) => ({ _id: id, id, position, menuId: menu })));
    });

    it('takes the whole new order in one call, refused without the order it was made from', async () => {
      const moved = [items[2]!, items[0]!, items[1]!];
      expect((await call(owner(), 'PUT', `${base()}/reorder`, { items: moved })).statusCode).toBe(428);
      const res = await call(owner(), 'PUT', `${base()}/reorder`, { items: moved }, `"${orderTag(items)}"`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers.etag).toBe(`"${orderTag(moved)}"`);
      expect(await listed()).toEqual(moved);
      items = moved;
    });

    it('answers a reorder made from an order that changed meanwhile with 409 and the current order, changing nothing', async () => {
      const stale = orderTag(items.toReversed());
      const res = await call(owner(), 'PUT', `${base()}/reorder`, { items: items.toReversed() }, `"${stale}"`);
      expect(res.statusCode).toBe(409);
      expect(res.json().data).toEqual({ items });
      expect(await listed()).toEqual(items);
    });

    it('refuses an order that leaves out an item, repeats one or names one of another menu or website', async () => {
      const other = (await made(`/api/cms/menus/${cast.site.B}`, { name: 'B’s' }, cast.headers.ownerB))._id;
      const foreign = (await made(`/api/cms/menus/${cast.site.B}/menu/${other}/items`, { label: 'B', url: '/b' }, cast.headers.ownerB))._id;
      for (const wrong of [items.slice(1), [items[0]!, items[0]!, items[1]!], [foreign, items[0]!, items[1]!], [...items, foreign]]) {
        const res = await call(owner(), 'PUT', `${base()}/reorder`, { items: wrong }, `"${orderTag(items)}"`);
        expect(res.statusCode, JSON.stringify(wrong)).toBe(400);
      }
      expect(await listed()).toEqual(items);
      // B's menu through A's website, and B's item under A's menu: unknown, not forbidden.
      expect((await call(owner(), 'GET', `/api/cms/menus/${cast.site.A}/menu/${other}/items`)).statusCode).toBe(404);
      expect((await call(owner(), 'POST', `/api/cms/menus/${cast.site.A}/menu/${other}/items`, { label: 'X', url: '/x' })).statusCode).toBe(404);
      expect((await call(owner(), 'GET', `${base()}/items/${foreign}`)).statusCode).toBe(404);
      expect((await call(owner(), 'GET', `/api/cms/menus/${cast.site.A}/menu/${UNKNOWN_ID}/items`)).statusCode).toBe(404);
    });

    it('wants a page or an address for each item, and no item under its own sub-item', async () => {
      const page = await made(`/api/cms/pages/${cast.site.A}`, { title: 'About', slug: 'about' });
      expect((await call(owner(), 'POST', `${base()}/items`, { label: 'Both', url: '/x', pageId: page._id })).statusCode).toBe(400);
      expect((await call(owner(), 'POST', `${base()}/items`, { label: 'Neither' })).statusCode).toBe(400);
      const parent = await made(`${base()}/items`, { label: 'About', pageId: page._id });
      const child = await made(`${base()}/items`, { label: 'Team', url: '/team', parentId: parent._id });
      const loop = await call(owner(), 'PUT', `${base()}/items/${parent._id}`, { parentId: child._id }, `"${parent.version}"`);
      expect(loop.statusCode).toBe(400);
      expect(loop.json().errors[0].path).toBe('body.parentId');
      // Deleting a parent takes its sub-items along.
      expect((await call(owner(), 'DELETE', `${base()}/items/${parent._id}`, undefined, `"${parent.version}"`)).statusCode).toBe(200);
      expect((await call(owner(), 'GET', `${base()}/items/${child._id}`)).statusCode).toBe(404);
    });
  });

  describe('slides', () => {
    it('show their picture from the library, keep their order, and keep a picture in use from being deleted', async () => {
      const slider = await made(`/api/cms/gallery-sliders/${cast.site.A}`, { name: 'Rooms' });
      const base = `/api/cms/gallery-sliders/${cast.site.A}/gallery-sliders/${slider._id}`;
      const shot = await picture(cast.site.A);
      const slide = await made(`${base}/slides`, { mediaId: shot.id, caption: 'Terrace' });
      expect(slide).toMatchObject({ thumbUrl: `/api/files/${shot.thumbKey}`, position: 0, sliderId: slider._id });
      const second = await made(`${base}/slides`, { mediaId: shot.id, caption: 'Hall' });
      expect((await call(owner(), 'PUT', `${base}/slide-order`, { slides: [second._id, slide._id] }, orderTag([slide._id, second._id]))).statusCode).toBe(200);
      const listed = data(await call(owner(), 'GET', `${base}/slides`)) as { caption: string }[];
      expect(listed.map((row) => row.caption)).toEqual(['Hall', 'Terrace']);
      const removed = await call(owner(), 'DELETE', `/api/cms/media/${cast.site.A}/media/${shot.id}`, undefined, '"1"');
      expect(removed.statusCode).toBe(400);
      // B's picture on A's slide: refused as a field error, nothing stored.
      const foreign = await picture(cast.site.B);
      const res = await call(owner(), 'POST', `${base}/slides`, { mediaId: foreign.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe('body.mediaId');
      expect(data(await call(owner(), 'GET', `${base}/slides`))).toHaveLength(2);
    });

    it('clear a hero slide’s picture, and its URL, when the picture is deleted', async () => {
      const slider = await made(`/api/cms/hero-sliders/${cast.site.A}`, { name: 'Welcome' });
      const shot = await picture(cast.site.A);
      const slide = await made(`/api/cms/hero-sliders/${cast.site.A}/${slider._id}/slides`, { title: 'Hello', mediaId: shot.id });
      expect(slide.thumbUrl).toBe(`/api/files/${shot.thumbKey}`);
      expect((await call(owner(), 'DELETE', `/api/cms/media/${cast.site.A}/media/${shot.id}`, undefined, '"1"')).statusCode).toBe(200);
      const after = data(await call(owner(), 'GET', `/api/cms/hero-sliders/${cast.site.A}/${slider._id}/slides/${slide._id}`));
      expect(after).toMatchObject({ mediaId: null, thumbUrl: null });
    });
  });

  describe('SEO', () => {
    it('is one record per website: none at first, made by POST or PUT, behind the seo flag', async () => {
      expect((await call(owner(), 'GET', seoPath())).statusCode).toBe(404);
      const first = await call(owner(), 'PUT', seoPath(), { title: 'Trattoria', keywords: ['pizza', 'pasta'], robots: 'noindex, follow' });
      expect(first.statusCode).toBe(201);
      expect(data(first)).toMatchObject({ title: 'Trattoria', keywords: ['pizza', 'pasta'], sitemap: true, isActive: true, ogImageThumbUrl: null });
      expect((await call(cast.headers.plainA, 'GET', seoPath())).statusCode).toBe(403);
      expect((await call(cast.headers.memberA, 'GET', seoPath())).statusCode).toBe(200);
      expect((await call(cast.headers.memberB, 'GET', seoPath())).statusCode).toBe(404);
      expect((await call(owner(), 'PUT', seoPath(), { robots: 'everything' }, '"1"')).statusCode).toBe(400);
    });

    it('lists every reachable website’s settings at /api/seo, filtered by isActive', async () => {
      expect((await call(cast.headers.ownerB, 'POST', `/api/seo/website/${cast.site.B}`, { title: 'B', isActive: false })).statusCode).toBe(201);
      const titles = async (headers: Headers, query = '') => (data(await call(headers, 'GET', `/api/seo${query}`)) as { title: string }[]).map((row) => row.title).toSorted();
      expect(await titles(cast.headers.admin)).toEqual(['B', 'Trattoria']);
      expect(await titles(cast.headers.admin, '?isActive=true')).toEqual(['Trattoria']);
      expect(await titles(owner())).toEqual(['Trattoria']);
      expect(await titles(cast.headers.memberB)).toEqual(['B']);
      expect(await titles(cast.headers.plainA)).toEqual([]);
      expect((await call(cast.headers.anonymous, 'GET', '/api/seo')).statusCode).toBe(401);
    });
  });

  describe('every module × level of a team role', () => {
    /** One member per module and level, on website A. */
    const members = new Map<string, Headers>();

    beforeAll(async () => {
      for (const module of CMS_MODULES) {
        for (const level of LEVELS) {
          const user = await seedUser(test.store, {
            type: 'teammember',
            email: `${module}-${level}@example.test`.toLowerCase(),
            username: `${module}-${level}`.toLowerCase(),
            password: 'member password 1',
            websiteId: cast.site.A,
            role: { name: `${module} ${level}`, permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { [module]: level } },
          });
          members.set(key(module, level), bearer(await tokenFor(test.store, user.id)));
        }
      }
    });

    /** A module's list path and a way to make one of its records, as the owner. */
    const modules: Partial<Record<CmsModule, { list: () => string; item: (id: string) => string; body: () => Promise<object> }>> = {
      pages: { list: () => `/api/cms/pages/${cast.site.A}`, item: (id) => `/api/cms/pages/${cast.site.A}/${id}`, body: async () => ({ title: 'Page', slug: uuidv7() }) },
      menus: { list: () => `/api/cms/menus/${cast.site.A}`, item: (id) => `/api/cms/menus/${cast.site.A}/menu/${id}`, body: async () => ({ name: 'Footer' }) },
      posts: { list: () => `/api/cms/posts/${cast.site.A}`, item: (id) => `/api/cms/posts/${cast.site.A}/${id}`, body: async () => ({ title: 'Post', slug: uuidv7() }) },
      heroSliders: { list: () => `/api/cms/hero-sliders/${cast.site.A}`, item: (id) => `/api/cms/hero-sliders/${cast.site.A}/${id}`, body: async () => ({ name: 'Top' }) },
      gallerySliders: {
        list: () => `/api/cms/gallery-sliders/${cast.site.A}`,
        item: (id) => `/api/cms/gallery-sliders/${cast.site.A}/gallery-sliders/${id}`,
        body: async () => ({ name: 'Rooms' }),
      },
    };

    it.each(Object.keys(modules) as CmsModule[])('%s: view reads, edit changes, manage creates and deletes; none gets nothing', async (module) => {
      const { list, item, body } = modules[module]!;
      for (const level of LEVELS) {
        const as = members.get(key(module, level))!;
        const allowed = (need: Level) => LEVELS.indexOf(level) >= LEVELS.indexOf(need);
        const expectCall = (res: LightMyRequestResponse, need: Level, ok: number) => expect(res.statusCode, `${module} ${level} needs ${need}: ${res.body}`).toBe(allowed(need) ? ok : 403);
        const record = await made(list(), await body());
        expectCall(await call(as, 'GET', list()), 'view', 200);
        expectCall(await call(as, 'GET', item(record._id)), 'view', 200);
        expectCall(await call(as, 'POST', list(), await body()), 'manage', 201);
        expectCall(await call(as, 'PUT', item(record._id), await body(), `"${record.version}"`), 'edit', 200);
        expectCall(await call(as, 'DELETE', item(record._id), undefined, `"${allowed('edit') ? record.version + 1 : record.version}"`), 'manage', 200);
        // Another module's level opens nothing here.
        const other = members.get(key(module === 'pages' ? 'posts' : 'pages', 'manage'))!;
        expect((await call(other, 'GET', list())).statusCode).toBe(403);
      }
    });

    it('keeps the seo flag apart from the cms modules', async () => {
      expect((await call(members.get(key('pages', 'manage'))!, 'GET', `/api/seo/website/${cast.site.A}`)).statusCode).toBe(403);
    });
  });
});
