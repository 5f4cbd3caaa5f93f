// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, memoryMailer, testAppConfig } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { uuidv7 } from '../../contract/uuid';
import { buildApp } from '../app';
import type { Store } from '../store/open';
import { apiKeys, cmsPages, gallerySliders, gallerySlides, heroSliders, heroSlides, media, menuItems, menus, postCategories, posts, seo } from '../store/schema';

/*
 * The delivery API on PGlite and PostgreSQL: a website's key reads that website's published
 * content and nothing else; a missing, wrong, switched-off or deleted key reads nothing; answers
 * carry an ETag a client can revalidate with, and any origin may read them.
 */

const DAY = 86_400_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

/** Content of one website, straight into its tables: a draft and a published version of most things. */
async function seedContent(store: Store, websiteId: string, tag: string) {
  const db = store.db;
  const picture = async (alt: string) =>
    (await db.insert(media).values({ websiteId, fileName: `${alt}.webp`, alt, mimetype: 'image/webp', size: 10, width: 800, height: 600, storageKey: `images/${uuidv7()}.webp`, thumbKey: `thumbs/${uuidv7()}.webp` }).returning())[0]!;
  const page = async (slug: string, values: Partial<typeof cmsPages.$inferInsert> = {}) =>
    (await db.insert(cmsPages).values({ websiteId, title: `${tag} ${slug}`, slug, status: 'published', content: `<p>${tag} ${slug}</p>`, ...values }).returning())[0]!;
  const about = await page('about', { order: 1 });
  await page('about', { language: 'de', title: `${tag} Über uns`, order: 2 });
  const secret = await page('secret', { status: 'draft' });
  const cover = await picture('cover');

  const [menu] = await db.insert(menus).values({ websiteId, name: 'Main', location: 'header' }).returning();
  await db.insert(menus).values({ websiteId, name: 'Footer', location: 'footer' });
  const item = async (label: string, position: number, values: Partial<typeof menuItems.$inferInsert> = {}) =>
    (await db.insert(menuItems).values({ websiteId, menuId: menu!.id, label, position, ...values }).returning())[0]!;
  await item('Home', 1, { url: '/' });
  const aboutItem = await item('About', 0, { pageId: about.id });
  await item('Team', 1, { url: '/team', parentId: aboutItem.id, openInNewTab: true });
  await item('Jobs', 0, { url: 'https://jobs.example', parentId: aboutItem.id });
  const secretItem = await item('Secret', 2, { pageId: secret.id });
  await item('Under the secret', 0, { url: '/hidden', parentId: secretItem.id });

  const [news] = await db.insert(postCategories).values({ websiteId, name: 'News', slug: 'news' }).returning();
  const post = (slug: string, values: Partial<typeof posts.$inferInsert>) =>
    db.insert(posts).values({ websiteId, title: `${tag} ${slug}`, slug, status: 'published', content: `<p>${slug}</p>`, ...values });
  await post('older', { publishedAt: at(-2 * DAY), categoryId: news!.id });
  await post('newer', { publishedAt: at(-DAY), coverMediaId: cover.id });
  await post('draft', { status: 'draft', publishedAt: at(-DAY) });
  await post('scheduled', { publishedAt: at(DAY) });

  const [hero] = await db.insert(heroSliders).values({ websiteId, name: 'Hero' }).returning();
  await db.insert(heroSliders).values({ websiteId, name: 'Old hero', status: 'inactive' });
  await db.insert(heroSlides).values([
    { websiteId, sliderId: hero!.id, title: 'Second', position: 1 },
    { websiteId, sliderId: hero!.id, title: 'First', position: 0, mediaId: cover.id },
  ]);
  const [gallery] = await db.insert(gallerySliders).values({ websiteId, name: 'Gallery' }).returning();
  await db.insert(gallerySlides).values({ websiteId, sliderId: gallery!.id, mediaId: cover.id, caption: 'Cover' });
  await db.insert(seo).values({ websiteId, title: `${tag} SEO`, keywords: ['cms'], ogImageMediaId: cover.id });
  return { about: about.id, menu: menu!.id, news: news!.id, cover, hero: hero!.id, secret };
}

describe.each(storeKinds)('the delivery API (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const keys = { A: '', B: '' };
  let A: Awaited<ReturnType<typeof seedContent>>;
  let B: Awaited<ReturnType<typeof seedContent>>;
  const get = (url: string, key: string | null = keys.A, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    test.app.inject({ method: 'GET', url, headers: { ...(key === null ? {} : { 'x-api-key': key }), ...headers } });
  const list = async (url: string) => (await get(url)).body;
  const makeKey = async (site: 'A' | 'B') => {
    const res = await send(site === 'A' ? 'ownerA' : 'ownerB', 'POST', `/api/websites/${cast.site[site]}/api-key`, {});
    expect(res.statusCode, res.body).toBe(201);
    return data(res).key as string;
  };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    keys.A = await makeKey('A');
    keys.B = await makeKey('B');
    A = await seedContent(test.store, cast.site.A, 'A');
    B = await seedContent(test.store, cast.site.B, 'B');
  });
  afterAll(() => test.app.close());
  /** A page's title changed with the triggers off: no revision is written, so no server hears of it. */
  const unheard = (title: string) =>
    test.store.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(cmsPages).set({ title }).where(eq(cmsPages.id, A.about));
    });

  it('answers the published pages of the key’s website, in their order, by slug and language', async () => {
    const all = await get('/api/public/pages');
    expect(all.statusCode, all.body).toBe(200);
    expect(data(all).map((page: { title: string }) => page.title)).toEqual(['A about', 'A Über uns']);
    expect(all.json().pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 2, itemsPerPage: 10 });
    expect(data(await get('/api/public/pages?language=de')).map((page: { language: string }) => page.language)).toEqual(['de']);

    const german = await get('/api/public/pages/about?language=de');
    expect(data(german)).toMatchObject({ title: 'A Über uns', slug: 'about', language: 'de', content: '<p>A about</p>' });
    // Without a language, the slug's oldest page.
    expect(data(await get('/api/public/pages/About')).language).toBe('en');
    // The same slug with B's key is B's page.
    expect(data(await get('/api/public/pages/about?language=en', keys.B)).title).toBe('B about');
  });

  it('never answers a draft, a post before its time, or another website’s content', async () => {
    expect((await get('/api/public/pages/secret')).statusCode).toBe(404);
    const postList = await get('/api/public/posts');
    expect(data(postList).map((post: { slug: string }) => post.slug)).toEqual(['newer', 'older']);
    expect(postList.json().pagination.totalItems).toBe(2);
    for (const slug of ['draft', 'scheduled']) expect((await get(`/api/public/posts/${slug}`)).statusCode).toBe(404);
    const everything = [list('/api/public/pages'), list('/api/public/posts'), list('/api/public/menus'), list('/api/public/hero-sliders'), list('/api/public/seo')];
    for (const body of await Promise.all(everything)) {
      expect(body).not.toContain('B ');
      expect(body).not.toContain('secret');
      expect(body).not.toContain('Old hero');
    }
    // B's records by id, with A's key: unknown.
    for (const url of [`/api/public/menus/${B.menu}`, `/api/public/media/${B.cover.id}`, `/api/public/hero-sliders/${B.hero}`]) {
      expect((await get(url)).statusCode, url).toBe(404);
      expect((await get(url, keys.B)).statusCode, url).toBe(200);
    }
  });
  it('answers posts newest first, by category slug or id, with cover and category', async () => {
    const post = data(await get('/api/public/posts/newer'));
    expect(post).toMatchObject({ slug: 'newer', content: '<p>newer</p>', category: null, cover: { id: A.cover.id, url: `/api/files/${A.cover.storageKey}`, alt: 'cover', width: 800, height: 600 } });
    for (const category of ['news', 'NEWS', A.news]) {
      const found = data(await get(`/api/public/posts?category=${category}`));
      expect(found.map((one: { slug: string }) => one.slug)).toEqual(['older']);
      expect(found[0].category).toEqual({ id: A.news, name: 'News', slug: 'news' });
    }
    expect(data(await get(`/api/public/posts?category=${B.news}`))).toEqual([]);
    expect(data(await get('/api/public/post-categories'))).toEqual([{ id: A.news, name: 'News', slug: 'news', description: '' }]);
    const paged = await get('/api/public/posts?limit=1&page=2');
    expect(data(paged).map((one: { slug: string }) => one.slug)).toEqual(['older']);
    expect(paged.json().pagination).toEqual({ currentPage: 2, totalPages: 2, totalItems: 2, itemsPerPage: 1 });
  });

  it('answers menus as trees: children under their parent, in order, a page by its slug, an item to a draft left out', async () => {
    const menu = data(await get(`/api/public/menus/${A.menu}`));
    const shape = (items: { label: string; url: string; children: unknown[] }[]): unknown => items.map(({ label, url, children }) => [label, url, shape(children as never)]);
    expect(shape(menu.items)).toEqual([
      ['About', '/about', [['Jobs', 'https://jobs.example', []], ['Team', '/team', []]]],
      ['Home', '/', []],
    ]);
    expect(menu.items[0]).toMatchObject({ page: { slug: 'about', language: 'en' }, openInNewTab: false });
    expect(menu.items[0].children[1]).toMatchObject({ openInNewTab: true, page: null });
    expect(data(await get('/api/public/menus')).map((one: { name: string }) => one.name)).toEqual(['Footer', 'Main']);
    expect(data(await get('/api/public/menus?location=header')).map((one: { id: string }) => one.id)).toEqual([A.menu]);
    // Publishing the page brings its item back.
    await test.store.db.update(cmsPages).set({ status: 'published' }).where(eq(cmsPages.id, A.secret.id));
    const labels = data(await get(`/api/public/menus/${A.menu}`)).items.map((item: { label: string; children: { label: string }[] }) => [item.label, item.children.map((child) => child.label)]);
    await test.store.db.update(cmsPages).set({ status: 'draft' }).where(eq(cmsPages.id, A.secret.id));
    expect(labels).toEqual([['About', ['Jobs', 'Team']], ['Home', []], ['Secret', ['Under the secret']]]);
  });

  it('answers active sliders with their slides in order, pictures, media and SEO', async () => {
    const [hero] = data(await get('/api/public/hero-sliders'));
    expect(data(await get('/api/public/hero-sliders'))).toHaveLength(1);
    expect(hero.slides.map((slide: { title: string }) => slide.title)).toEqual(['First', 'Second']);
    expect(hero.slides[0].image).toEqual({ id: A.cover.id, url: `/api/files/${A.cover.storageKey}`, thumbUrl: `/api/files/${A.cover.thumbKey}`, alt: 'cover', width: 800, height: 600 });
    expect(hero.slides[1].image).toBeNull();
    const [gallery] = data(await get('/api/public/gallery-sliders'));
    expect(gallery.slides).toEqual([{ id: expect.any(String), caption: 'Cover', image: expect.objectContaining({ url: `/api/files/${A.cover.storageKey}` }) }]);
    expect(data(await get(`/api/public/media/${A.cover.id}`))).toMatchObject({ fileName: 'cover.webp', mimetype: 'image/webp', url: `/api/files/${A.cover.storageKey}` });
    expect(data(await get('/api/public/seo'))).toMatchObject({ title: 'A SEO', keywords: ['cms'], robots: 'index, follow', ogImage: { id: A.cover.id } });
    await test.store.db.update(seo).set({ isActive: false }).where(eq(seo.websiteId, cast.site.A));
    expect(data(await get('/api/public/seo'))).toBeNull();
    await test.store.db.update(seo).set({ isActive: true }).where(eq(seo.websiteId, cast.site.A));
  });

  it('tags every answer, and answers 304 to a client that holds it until the content changes', async () => {
    const first = await get('/api/public/pages/about');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    // A cache on the way may answer from its copy for a short time, and revalidate in the background.
    expect(first.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=60');
    expect(String(first.headers.vary)).toMatch(/X-API-Key/i);
    const again = await get('/api/public/pages/about', keys.A, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The browser keeps the security headers of the answer it revalidated; the 304 repeats none.
    expect(first.headers['content-security-policy']).toBeDefined();
    expect(again.headers['content-security-policy']).toBeUndefined();
    expect(again.headers['access-control-allow-origin']).toBe('*');
    // Another website's answer has its own tag; so has a page its owner changed, from that moment.
    expect((await get('/api/public/pages/about', keys.B, { 'if-none-match': etag })).statusCode).toBe(200);
    const [page] = await test.store.db.select().from(cmsPages).where(eq(cmsPages.id, A.about));
    expect((await send('ownerA', 'PUT', `/api/cms/pages/${cast.site.A}/${A.about}`, { title: 'A about, renamed' }, page!.version)).statusCode).toBe(200);
    const changed = await get('/api/public/pages/about', keys.A, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(data(changed).title).toBe('A about, renamed');
    expect(changed.headers.etag).not.toBe(etag);
    const renamed = await get('/api/public/pages/about', keys.A, { 'if-none-match': `"x", ${String(changed.headers.etag)}` });
    expect(renamed.statusCode).toBe(304);
    // The 304 says what the 200 said of caching.
    expect(renamed.headers).toMatchObject({ etag: changed.headers.etag, 'cache-control': changed.headers['cache-control'], vary: changed.headers.vary });
  });

  it('answers a client holding the current tag from what it remembers, without reading the content again', async () => {
    const url = '/api/public/pages/about';
    const etag = String((await get(url)).headers.etag);
    // Changed behind the server's back (no revision, so nobody is told): the server still answers
    // from the tag it remembers, which it could not if it read and built the answer again.
    await unheard('A about, unheard of');
    try {
      expect((await get(url, keys.A, { 'if-none-match': etag })).statusCode).toBe(304);
      // A client without the tag is answered what is stored.
      expect(data(await get(url)).title).toBe('A about, unheard of');
    } finally {
      await unheard('A about, renamed');
    }
  });

  it('forgets what it remembers of a website once a change of it is heard, wherever it was made', async () => {
    const url = '/api/public/pages/about';
    const etag = String((await get(url)).headers.etag);
    expect((await get(url, keys.A, { 'if-none-match': etag })).statusCode).toBe(304);
    // Straight into the database, as another server or a job would: the change feed tells it.
    await test.store.db.update(cmsPages).set({ title: 'A about, elsewhere' }).where(eq(cmsPages.id, A.about));
    await vi.waitFor(async () => expect((await get(url, keys.A, { 'if-none-match': etag })).statusCode).toBe(200));
    // Likewise a key switched off elsewhere, though it was just used.
    await test.store.db.update(apiKeys).set({ isActive: false }).where(eq(apiKeys.websiteId, cast.site.A));
    try {
      await vi.waitFor(async () => expect((await get(url)).statusCode).toBe(401));
    } finally {
      await test.store.db.update(apiKeys).set({ isActive: true }).where(eq(apiKeys.websiteId, cast.site.A));
    }
    await vi.waitFor(async () => expect((await get(url)).statusCode).toBe(200));
  });

  it('never lets a cache take one website’s answer for another’s, even where both say the same', async () => {
    // No page of either website is in Klingon: the same empty list for both.
    const [ofA, ofB] = [await get('/api/public/pages?language=tlh', keys.A), await get('/api/public/pages?language=tlh', keys.B)];
    expect(ofA.body).toBe(ofB.body);
    expect(ofA.headers.etag).not.toBe(ofB.headers.etag);
    expect((await get('/api/public/pages?language=tlh', keys.B, { 'if-none-match': String(ofA.headers.etag) })).statusCode).toBe(200);
    expect(String(ofA.headers.vary)).toMatch(/X-API-Key/i);
    // A refusal is kept by no cache (a draft shown through a preview link: preview.test.ts).
    expect((await get('/api/public/pages', null)).headers['cache-control']).toBe('no-store');
  });

  it('lets any origin read the answers and ask first, and no other API route', async () => {
    const origin = { origin: 'https://site-a.example' };
    const answer = await get('/api/public/pages', keys.A, origin);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['access-control-expose-headers']).toMatch(/ETag/i);
    expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await get('/api/public/pages', null, origin)).headers['access-control-allow-origin']).toBe('*');
    const preflight = await test.app.inject({
      method: 'OPTIONS',
      url: '/api/public/pages/about?language=en',
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/X-API-Key/i);
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/GET/);
    expect((await test.app.inject({ method: 'GET', url: '/api/white-label/config', headers: origin })).headers['access-control-allow-origin']).toBeUndefined();
    const adminPreflight = await test.app.inject({ method: 'OPTIONS', url: '/api/auth/login', headers: { ...origin, 'access-control-request-method': 'POST' } });
    expect(adminPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('describes every route in /api/openapi.json from the routes’ own schemas', async () => {
    const res = await test.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = JSON.parse(res.body);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).toSorted()).toEqual(['apiKey', 'bearer']);
    expect(document.components.schemas).toHaveProperty('PublicMenuItem');
    const pages = document.paths['/api/public/pages'].get;
    expect(pages).toMatchObject({ operationId: 'publicPages', tags: ['public'], security: [{ apiKey: [] }], 'x-policy': 'apiKey' });
    expect(pages.parameters.map((parameter: { name: string }) => parameter.name).toSorted()).toEqual(['language', 'limit', 'page']);
    expect(pages.responses['200'].content['application/json'].schema.properties.data.items.required).toContain('slug');
    const cmsPagesList = document.paths['/api/cms/pages/{websiteId}'];
    expect(cmsPagesList.get).toMatchObject({ tags: ['cms'], security: [{ bearer: [] }], 'x-policy': { website: 'pages', level: 'view' } });
    expect(cmsPagesList.post.requestBody.content['application/json'].schema.properties).toHaveProperty('title');
    expect(document.paths['/api/auth/login'].post).toMatchObject({ tags: ['auth'], security: [] });
    // Every /api route is in it, each with its area; nothing else is.
    const operations = Object.entries(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap(([path, methods]) => Object.values(methods).map((op) => [path, op.tags] as const));
    expect(operations.length).toBeGreaterThan(100);
    for (const [path, tags] of operations) {
      expect(path).toMatch(/^\/api\//);
      expect(tags, path).toHaveLength(1);
    }
    expect(document.paths).not.toHaveProperty(['/api/public/*']);
    // Every reference points at a schema the document holds.
    const refs = [...res.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(document.components.schemas, ref).toHaveProperty([ref]);
  });

  it('answers 401 to a request without a key, with a wrong one, a switched-off or a deleted one, or a session alone', async () => {
    const refused = async (key: string | null, headers: Record<string, string> = {}) => {
      const res = await get('/api/public/pages', key, headers);
      expect(res.statusCode, String(key)).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Send an active API key of the website in the X-API-Key header.' });
    };
    await refused(null);
    await refused(`${keys.A}x`);
    await refused('short');
    await refused(null, cast.headers.admin);
    await refused(null, cast.headers.ownerA);
    expect((await test.app.inject({ method: 'HEAD', url: '/api/public/pages' })).statusCode).toBe(401);

    expect((await send('ownerA', 'PATCH', `/api/websites/${cast.site.A}/api-key/toggle`, undefined, 1)).statusCode).toBe(200);
    await refused(keys.A);
    expect((await get('/api/public/pages', keys.B)).statusCode).toBe(200);
    expect((await send('ownerA', 'PATCH', `/api/websites/${cast.site.A}/api-key/toggle`, undefined, 2)).statusCode).toBe(200);
    expect((await get('/api/public/pages')).statusCode).toBe(200);

    // A new key replaces the old one at once.
    const old = keys.A;
    keys.A = await makeKey('A');
    await refused(old);
    expect((await get('/api/public/pages')).statusCode).toBe(200);

    const [stored] = await test.store.db.select({ version: apiKeys.version }).from(apiKeys).where(eq(apiKeys.websiteId, cast.site.A));
    expect((await send('ownerA', 'DELETE', `/api/websites/${cast.site.A}/api-key`, undefined, stored!.version)).statusCode).toBe(200);
    await refused(keys.A);
  });
});

describe('the delivery API beside configured CORS origins', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    app = await buildApp({ config: testAppConfig({ corsOrigins: ['https://admin.example'] }), store: await createTestStore('pglite'), mailer: memoryMailer(), logger: false });
  });
  afterAll(() => app.close());

  it('still lets any origin ask for public content, and only the configured one for the rest', async () => {
    const ask = (url: string, origin: string) =>
      app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' } });
    const site = await ask('/api/public/pages', 'https://site-a.example');
    expect(site.statusCode).toBe(204);
    expect(site.headers['access-control-allow-origin']).toBe('*');
    expect((await ask('/api/profile', 'https://site-a.example')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await ask('/api/profile', 'https://admin.example')).headers['access-control-allow-origin']).toBe('https://admin.example');
    const refused = await app.inject({ url: '/api/public/pages', headers: { origin: 'https://site-a.example' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });
});
