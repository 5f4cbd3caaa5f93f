// @vitest-environment node
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast, type Who } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { seedWebsite } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { uuidv7 } from '../../contract/uuid';
import { slugOf } from '../content/slugs';
import { cmsPages, media, postCategories, posts } from '../store/schema';

/*
 * Spec §7 CMS pages and Posts on PGlite and PostgreSQL: the generic CRUD with their own rules —
 * slugs made from titles and unique per website (and language, for pages), rich text kept only
 * as the allowlist allows, a published post's date, its cover, the `category` filter — and what a
 * record of another website is through this one's path: unknown.
 */

type Entity = { _id: string; version: number } & Record<string, unknown>;

const XSS = '<p>Hello <strong>world</strong></p><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)" onclick="alert(4)">link</a><iframe src="https://evil.example"></iframe>';
const XSS_CLEAN = '<p>Hello <strong>world</strong></p><a>link</a>';

describe('slugOf', () => {
  it.each([
    ['Über uns – Café Müller', 'ueber-uns-cafe-mueller'],
    ['Straße & Größe', 'strasse-groesse'],
    ['  Hello,   World!  ', 'hello-world'],
    ['Crème brûlée à la française', 'creme-brulee-a-la-francaise'],
    ['København Łódź', 'kobenhavn-lodz'],
    ['Пицца', ''],
  ])('makes %j into %j', (title, slug) => {
    expect(slugOf(title)).toBe(slug);
  });

  it('stops at 120 characters, never on a dash', () => {
    const slug = slugOf(`${'a'.repeat(119)} b`);
    expect(slug).toBe('a'.repeat(119));
  });
});

const pagesOf = (site: string) => `/api/cms/pages/${site}`;
const postsOf = (site: string) => `/api/cms/posts/${site}`;
const categoriesOf = (site: string) => `/api/cms/posts/${site}/categories`;

describe.each(storeKinds)('pages, posts and post categories (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const made = async (url: string, body: object, who: Who = 'ownerA') => {
    const res = await send(who, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as Entity;
  };
  const listed = async (url: string, who: Who = 'ownerA') => {
    const res = await send(who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return data(res) as Entity[];
  };
  /** A website of owner A's with nothing in it yet, for lists that count. */
  const freshSite = async () => (await seedWebsite(test.store, { ownerId: cast.ids.ownerA, name: `Site ${uuidv7()}` })).id;
  const picture = async (websiteId: string) => {
    const [row] = await test.store.db
      .insert(media)
      .values({ websiteId, fileName: 'cover.webp', mimetype: 'image/webp', size: 10, storageKey: `media/${uuidv7()}.webp`, thumbKey: `media/${uuidv7()}.webp` })
      .returning();
    return row!;
  };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
  });
  afterAll(() => test.app.close());

  describe('pages', () => {
    it('are made, read, changed and deleted, with a slug made from the title', async () => {
      const page = await made(pagesOf(cast.site.A), { title: 'Über uns – Café Müller', content: '<p>Hi</p>' });
      expect(page).toMatchObject({ slug: 'ueber-uns-cafe-mueller', status: 'draft', language: 'en', content: '<p>Hi</p>', order: 0 });
      const item = `${pagesOf(cast.site.A)}/${page._id}`;
      expect(data(await send('ownerA', 'GET', item))).toMatchObject({ _id: page._id, title: 'Über uns – Café Müller' });

      // A new title keeps the address; clearing the slug makes a new one from the title.
      const renamed = await send('ownerA', 'PUT', item, { title: 'Our team', status: 'published' }, page.version);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(data(renamed)).toMatchObject({ title: 'Our team', slug: 'ueber-uns-cafe-mueller', status: 'published', version: 2 });
      const cleared = await send('ownerA', 'PUT', item, { slug: '' }, 2);
      expect(data(cleared)).toMatchObject({ slug: 'our-team', version: 3 });
      const typed = await send('ownerA', 'PUT', item, { slug: 'Team ' }, 3);
      expect(typed.statusCode, typed.body).toBe(200);
      expect(data(typed).slug).toBe('team');

      expect((await send('ownerA', 'DELETE', item, undefined, 4)).statusCode).toBe(200);
      expect((await send('ownerA', 'GET', item)).statusCode).toBe(404);
    });

    it('refuses a slug taken in the same website and language as a field error, and allows it in another language or website', async () => {
      const site = await freshSite();
      await made(pagesOf(site), { title: 'Kontakt', language: 'de' });
      for (const body of [{ title: 'Kontakt', language: 'de' }, { title: 'Other', slug: 'kontakt', language: 'de' }]) {
        const clash = await send('ownerA', 'POST', pagesOf(site), body);
        expect(clash.statusCode, clash.body).toBe(400);
        expect(clash.json().errors).toEqual([{ path: 'body.slug', message: messages.valueTaken.message }]);
      }
      expect((await made(pagesOf(site), { title: 'Kontakt', language: 'en' })).slug).toBe('kontakt');
      expect((await made(pagesOf(cast.site.B), { title: 'Kontakt', language: 'de' }, 'ownerB')).slug).toBe('kontakt');
      // Renaming another German page onto the taken slug is refused the same way.
      const other = await made(pagesOf(site), { title: 'Impressum', language: 'de' });
      const moved = await send('ownerA', 'PUT', `${pagesOf(site)}/${other._id}`, { slug: 'kontakt' }, other.version);
      expect(moved.statusCode).toBe(400);
      expect(moved.json().errors[0].path).toBe('body.slug');
      const rows = await test.store.db.select({ slug: cmsPages.slug, language: cmsPages.language }).from(cmsPages).where(eq(cmsPages.websiteId, site)).orderBy(asc(cmsPages.slug));
      expect(rows).toEqual([
        { slug: 'impressum', language: 'de' },
        { slug: 'kontakt', language: 'de' },
        { slug: 'kontakt', language: 'en' },
      ]);
    });

    it('gives a title with nothing Latin in it a slug anyway', async () => {
      const site = await freshSite();
      expect((await made(pagesOf(site), { title: 'Пицца' })).slug).toBe('page');
    });

    it('filter by status and language and search titles and slugs', async () => {
      const site = await freshSite();
      await made(pagesOf(site), { title: 'Home', status: 'published', language: 'en' });
      await made(pagesOf(site), { title: 'Startseite', status: 'published', language: 'de' });
      await made(pagesOf(site), { title: 'Speisekarte', status: 'draft', language: 'de', slug: 'menu' });
      const titles = async (query: string) => (await listed(`${pagesOf(site)}?${query}`)).map((page) => page.title).toSorted();
      expect(await titles('status=published')).toEqual(['Home', 'Startseite']);
      expect(await titles('language=de')).toEqual(['Speisekarte', 'Startseite']);
      expect(await titles('status=draft&language=de')).toEqual(['Speisekarte']);
      expect(await titles('search=start')).toEqual(['Startseite']);
      expect(await titles('search=menu')).toEqual(['Speisekarte']);
      const res = await send('ownerA', 'GET', `${pagesOf(site)}?status=published&limit=1`);
      expect(res.json().pagination).toEqual({ currentPage: 1, totalPages: 2, totalItems: 2, itemsPerPage: 1 });
    });

    it('keep only the allowed rich text, on create and on update', async () => {
      const page = await made(pagesOf(cast.site.A), { title: 'Payload', content: XSS });
      expect(page.content).toBe(XSS_CLEAN);
      const changed = await send('ownerA', 'PUT', `${pagesOf(cast.site.A)}/${page._id}`, { content: `<p onmouseover="alert(1)">x</p>${XSS}` }, page.version);
      expect(data(changed).content).toBe(`<p>x</p>${XSS_CLEAN}`);
      const [row] = await test.store.db.select({ content: cmsPages.content }).from(cmsPages).where(eq(cmsPages.id, page._id));
      expect(row!.content).toBe(`<p>x</p>${XSS_CLEAN}`);
    });
  });

  describe('post categories', () => {
    it('are made with a slug from the name, unique per website, listed, changed and deleted', async () => {
      const site = await freshSite();
      const news = await made(categoriesOf(site), { name: 'Neuigkeiten & Events', description: 'What is new' });
      expect(news.slug).toBe('neuigkeiten-events');
      const clash = await send('ownerA', 'POST', categoriesOf(site), { name: 'Neuigkeiten Events' });
      expect(clash.statusCode).toBe(400);
      expect(clash.json().errors[0].path).toBe('body.slug');
      expect((await made(categoriesOf(cast.site.B), { name: 'Neuigkeiten & Events' }, 'ownerB')).slug).toBe('neuigkeiten-events');
      await made(categoriesOf(site), { name: 'Recipes' });
      expect((await listed(`${categoriesOf(site)}?search=recip`)).map((row) => row.name)).toEqual(['Recipes']);
      const item = `${categoriesOf(site)}/${news._id}`;
      expect(data(await send('ownerA', 'PUT', item, { name: 'News' }, news.version))).toMatchObject({ name: 'News', slug: 'neuigkeiten-events' });
      // Deleting a category leaves its posts without one.
      const post = await made(postsOf(site), { title: 'Opening', categoryId: news._id });
      expect((await send('ownerA', 'DELETE', item, undefined, 2)).statusCode).toBe(200);
      expect(data(await send('ownerA', 'GET', `${postsOf(site)}/${post._id}`)).categoryId).toBeNull();
    });
  });

  describe('posts', () => {
    it('are made, read, changed and deleted, with their cover’s thumbnail and sanitized content', async () => {
      const cover = await picture(cast.site.A);
      const post = await made(postsOf(cast.site.A), { title: 'Summer menu', excerpt: 'Fresh', content: XSS, coverMediaId: cover.id });
      expect(post).toMatchObject({ slug: 'summer-menu', status: 'draft', publishedAt: null, content: XSS_CLEAN, coverMediaId: cover.id, coverThumbUrl: `/api/files/${cover.thumbKey}` });
      const item = `${postsOf(cast.site.A)}/${post._id}`;
      expect(data(await send('ownerA', 'GET', item))).toMatchObject({ _id: post._id, coverThumbUrl: `/api/files/${cover.thumbKey}` });
      const changed = await send('ownerA', 'PUT', item, { coverMediaId: null, content: '<h2 style="color:red">Menu</h2>' }, post.version);
      expect(data(changed)).toMatchObject({ coverMediaId: null, coverThumbUrl: null, content: '<h2>Menu</h2>' });
      expect((await send('ownerA', 'DELETE', item, undefined, 2)).statusCode).toBe(200);
      expect((await send('ownerA', 'GET', item)).statusCode).toBe(404);
    });

    it('get the moment they are published when published without a date, and keep a date that was given', async () => {
      const before = Date.now();
      const live = await made(postsOf(cast.site.A), { title: 'Live now', status: 'published' });
      const stamped = Date.parse(live.publishedAt as string);
      expect(stamped).toBeGreaterThanOrEqual(before - 1000);
      expect(stamped).toBeLessThanOrEqual(Date.now() + 1000);
      // ISO 8601 on the wire, whatever the column's own text is.
      expect(live.publishedAt).toBe(new Date(stamped).toISOString());

      const scheduled = await made(postsOf(cast.site.A), { title: 'Later', status: 'published', publishedAt: '2031-01-02T03:04:05.000+01:00' });
      expect(scheduled.publishedAt).toBe('2031-01-02T02:04:05.000Z');

      const draft = await made(postsOf(cast.site.A), { title: 'Draft first' });
      expect(draft.publishedAt).toBeNull();
      const item = `${postsOf(cast.site.A)}/${draft._id}`;
      const titled = await send('ownerA', 'PUT', item, { title: 'Draft, renamed' }, 1);
      expect(data(titled).publishedAt).toBeNull();
      const published = await send('ownerA', 'PUT', item, { status: 'published' }, 2);
      expect(Date.parse(data(published).publishedAt)).toBeGreaterThanOrEqual(before - 1000);
      // Clearing the date of a published post dates it again; unpublishing keeps its date.
      const cleared = await send('ownerA', 'PUT', item, { publishedAt: null }, 3);
      expect(data(cleared).publishedAt).not.toBeNull();
      const unpublished = await send('ownerA', 'PUT', item, { status: 'draft' }, 4);
      expect(data(unpublished)).toMatchObject({ status: 'draft', publishedAt: data(cleared).publishedAt });
    });

    it('filter by status and category, search titles and excerpts, and count per status', async () => {
      const site = await freshSite();
      const news = await made(categoriesOf(site), { name: 'News' });
      const recipes = await made(categoriesOf(site), { name: 'Recipes' });
      await made(postsOf(site), { title: 'We open', status: 'published', categoryId: news._id });
      await made(postsOf(site), { title: 'Pizza dough', excerpt: 'Slow and cold', status: 'published', categoryId: recipes._id });
      await made(postsOf(site), { title: 'Tiramisu', status: 'draft', categoryId: recipes._id });
      await made(postsOf(site), { title: 'Loose thoughts' });
      const titles = async (query: string) => (await listed(`${postsOf(site)}?${query}`)).map((post) => post.title).toSorted();
      expect(await titles(`category=${recipes._id}`)).toEqual(['Pizza dough', 'Tiramisu']);
      expect(await titles(`category=${recipes._id}&status=published`)).toEqual(['Pizza dough']);
      expect(await titles('status=draft')).toEqual(['Loose thoughts', 'Tiramisu']);
      expect(await titles('search=cold')).toEqual(['Pizza dough']);
      expect(await titles(`category=${news._id}&search=open`)).toEqual(['We open']);
      expect((await send('ownerA', 'GET', `${postsOf(site)}?category=not-an-id`)).statusCode).toBe(400);
      const stats = await send('ownerA', 'GET', `${postsOf(site)}/stats`);
      expect(stats.statusCode, stats.body).toBe(200);
      expect(data(stats)).toEqual({ total: 4, recent: 4, by: { status: { draft: 2, published: 2 } } });
    });

    it('refuse a category or cover of another website as a field error, storing nothing', async () => {
      const theirs = await made(categoriesOf(cast.site.B), { name: `B’s ${uuidv7()}` }, 'ownerB');
      const theirCover = await picture(cast.site.B);
      const count = async () => (await test.store.db.select({ id: posts.id }).from(posts).where(eq(posts.websiteId, cast.site.A))).length;
      const before = await count();
      for (const body of [{ categoryId: theirs._id }, { coverMediaId: theirCover.id }]) {
        const res = await send('ownerA', 'POST', postsOf(cast.site.A), { title: `Foreign ${uuidv7()}`, ...body });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors).toEqual([{ path: `body.${Object.keys(body)[0]}`, message: messages.unknownReference.message }]);
      }
      expect(await count()).toBe(before);
      const mine = await made(postsOf(cast.site.A), { title: `Mine ${uuidv7()}` });
      const moved = await send('ownerA', 'PUT', `${postsOf(cast.site.A)}/${mine._id}`, { categoryId: theirs._id }, mine.version);
      expect(moved.statusCode).toBe(400);
      const [row] = await test.store.db.select({ categoryId: posts.categoryId, version: posts.version }).from(posts).where(eq(posts.id, mine._id));
      expect(row).toEqual({ categoryId: null, version: 1 });
    });
  });

  it('answers records of website B through A’s path as unknown, changing nothing', async () => {
    const page = await made(pagesOf(cast.site.B), { title: `B page ${uuidv7()}` }, 'ownerB');
    const category = await made(categoriesOf(cast.site.B), { name: `B category ${uuidv7()}` }, 'ownerB');
    const post = await made(postsOf(cast.site.B), { title: `B post ${uuidv7()}`, categoryId: category._id }, 'ownerB');
    const items = [`${pagesOf(cast.site.A)}/${page._id}`, `${categoriesOf(cast.site.A)}/${category._id}`, `${postsOf(cast.site.A)}/${post._id}`];
    for (const item of items) {
      expect((await send('ownerA', 'GET', item)).statusCode, item).toBe(404);
      expect((await send('ownerA', 'PUT', item, { title: 'Taken', name: 'Taken' }, 1)).statusCode, item).toBe(404);
      expect((await send('ownerA', 'DELETE', item, undefined, 1)).statusCode, item).toBe(404);
    }
    expect((await send('ownerA', 'GET', `${postsOf(cast.site.A)}?category=${category._id}`)).json().data).toEqual([]);
    const versions = await Promise.all([
      test.store.db.select({ v: cmsPages.version }).from(cmsPages).where(eq(cmsPages.id, page._id)),
      test.store.db.select({ v: postCategories.version }).from(postCategories).where(eq(postCategories.id, category._id)),
      test.store.db.select({ v: posts.version }).from(posts).where(eq(posts.id, post._id)),
    ]);
    expect(versions.map(([row]) => row?.v)).toEqual([1, 1, 1]);
  });
});
