import { and, asc, count, desc, eq, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { hash } from 'node:crypto';
import type { ActionAnswer, AnyAction } from '../../contract/action';
import * as delivery from '../../contract/delivery';
import type { GallerySlider, GastroMenu, HeroSlider, Menu, MenuEntry } from '../../contract/delivery';
import { messages } from '../../contract/messages';
import { PREVIEW_HEADER, type PreviewKind } from '../../contract/preview';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { readPreviewToken } from '../content/preview';
import { fileUrl } from '../files/storage';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { ok } from '../http/reply';
import { prepared } from '../store/prepared';
import { cmsPages, gallerySliders, gallerySlides, gastroAllergens, gastroCategories, gastroItems, gastroMenus, heroSliders, heroSlides, media, menuItems, menus, postCategories, posts, seo } from '../store/schema';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors reads it (its types do not say so): `false` leaves a route's CORS to the route. */
    cors?: false;
  }
}

// The delivery API (spec: the websites themselves call it; its calls and answers are declared in
// contract/delivery.ts). Read-only, answered to the website whose active key is in X-API-Key
// (policy 'apiKey' puts it in `request.website`), and only what is published: no draft, no
// inactive slider, no post before its time, no page a menu item names while it is a draft. A
// preview token (contract/preview.ts) shows the one draft page, post or food menu it names.

type Paged = { page: number; limit: number };

const imageColumns = { id: media.id, storageKey: media.storageKey, thumbKey: media.thumbKey, alt: media.alt, width: media.width, height: media.height };
type ImageRow = { storageKey: string; thumbKey: string | null };
const image = <R extends ImageRow>({ storageKey, thumbKey, ...rest }: R) => ({ ...rest, url: fileUrl(storageKey)!, thumbUrl: fileUrl(thumbKey) });
/** The picture a row of the same website refers to (its composite key keeps it there). */
const pictureOf = (mediaId: AnyPgColumn, websiteId: AnyPgColumn) => and(eq(media.id, mediaId), eq(media.websiteId, websiteId));

const pagination = ({ page, limit }: Paged, totalItems: number) => ({
  currentPage: page,
  totalPages: Math.max(1, Math.ceil(totalItems / limit)),
  totalItems,
  itemsPerPage: limit,
});

/** Rows by the record they belong to (a slide's slider), each without that id, in their order. */
function groupedBy<K extends string, R extends Record<K, string>>(rows: R[], key: K): Map<string, Omit<R, K>[]> {
  const groups = new Map<string, Omit<R, K>[]>();
  for (const { [key]: owner, ...rest } of rows) {
    const group = groups.get(owner);
    if (group) group.push(rest as Omit<R, K>);
    else groups.set(owner, [rest as Omit<R, K>]);
  }
  return groups;
}

const websiteOf = (request: FastifyRequest) => request.website!.id;
/** An answer's place in what the server remembers: its website and its address. */
const addressOf = (request: FastifyRequest) => `${websiteOf(request)} ${request.url}`;

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
/** Whether If-None-Match names this tag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function held(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * How long a cache on the way (a CDN, a proxy, the visitor's browser) may answer from its copy
 * without asking, and how much longer it may answer with that copy while it asks in the
 * background. A change made in the admin (a price, a page unpublished, the key switched off) then
 * reaches the visitors within 30 s of a cache that honours both, 90 s at the most; every visitor of
 * a website no longer costs this server a request.
 */
const DELIVERY_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=60';
/** How long this server keeps an answer's tag without hearing of a change: a post's publishing time is told by nothing. */
const TAG_KEPT_MS = 30_000;
/** Tags kept at most (the oldest forgotten first): a key's holder varying the query string must not fill the memory. */
const TAGS_KEPT = 10_000;

/** A draft shown to whoever holds its preview link: no cache on the way keeps it, nor does the server its tag. */
const previewing = (request: FastifyRequest) => request.headers[PREVIEW_HEADER.toLowerCase()] !== undefined;

/**
 * Every answer carries a tag of its content and its website, and a client that holds it hears 304
 * with no body. The answer depends on the key, so it varies by it: a cache keys on it, and another
 * website's tag never matches, even for the same content. Weak, because compression changes the
 * bytes, not the content.
 */
function tagged(request: FastifyRequest, reply: FastifyReply, etag: string): FastifyReply {
  return reply
    .header('etag', etag)
    .header('cache-control', previewing(request) ? 'private, no-store' : DELIVERY_CACHE_CONTROL)
    .header('vary', `X-API-Key, ${PREVIEW_HEADER}`);
}

const pageColumns = {
  id: cmsPages.id,
  title: cmsPages.title,
  slug: cmsPages.slug,
  language: cmsPages.language,
  metaTitle: cmsPages.metaTitle,
  metaDescription: cmsPages.metaDescription,
  order: cmsPages.order,
  updatedAt: cmsPages.updatedAt,
};

// A published post shows from its publishing time on; one without (published before it had
// one) from its making.
const publishedAt = sql`coalesce(${posts.publishedAt}, ${posts.createdAt})`.mapWith(posts.createdAt);
const postColumns = {
  id: posts.id,
  title: posts.title,
  slug: posts.slug,
  excerpt: posts.excerpt,
  publishedAt,
  category: { id: postCategories.id, name: postCategories.name, slug: postCategories.slug },
  cover: imageColumns,
};
const categoryOfPost = and(eq(postCategories.id, posts.categoryId), eq(postCategories.websiteId, posts.websiteId));
const coverOfPost = pictureOf(posts.coverMediaId, posts.websiteId);
const postOf = <R extends { publishedAt: Date; cover: ImageRow | null }>(row: R) => ({ ...row, publishedAt: row.publishedAt.toISOString(), cover: row.cover && image(row.cover) });

/**
 * Any website may call the delivery API from a browser: the key, not the origin, is what is
 * checked, and no cookie or session rides along. Only its routes say so (an onRequest hook of their
 * plugins, in place of helmet's same-origin resource policy); the 401 of a bad key is readable too,
 * so a website can tell why it got nothing.
 */
export function openToWebsites(_request: FastifyRequest, reply: FastifyReply, done: () => void) {
  reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'ETag').header('cross-origin-resource-policy', 'cross-origin');
  done();
}

/** A prepared query's optional filter: the rows whose `column` is the placeholder's value, or all rows when it is null. */
const whenGiven = (column: AnyPgColumn, name: string, type: 'text' | 'uuid') =>
  sql`(${sql.placeholder(name)}::${sql.raw(type)} is null or ${column} = ${sql.placeholder(name)}::${sql.raw(type)})`;
/** Published, or the one draft a preview link shows (the placeholder `draft`, null without a link). */
const publishedOrDraft = (status: AnyPgColumn, id: AnyPgColumn) => or(eq(status, 'published'), eq(id, sql`${sql.placeholder('draft')}::uuid`));

/** A website's published pages, in one language or all. */
const inPublishedPages = and(
  eq(cmsPages.websiteId, sql.placeholder('websiteId')),
  eq(cmsPages.status, 'published'),
  whenGiven(cmsPages.language, 'language', 'text'),
);
const publishedPages = prepared((db) =>
  db
    .select(pageColumns)
    .from(cmsPages)
    .where(inPublishedPages)
    .orderBy(asc(cmsPages.order), asc(cmsPages.title), asc(cmsPages.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('delivery_pages'),
);
const publishedPageCount = prepared((db) => db.select({ n: count() }).from(cmsPages).where(inPublishedPages).prepare('delivery_page_count'));

/** A page by its slug: published, or the draft a preview link shows; in one language, or the oldest of that slug. */
const pageBySlug = prepared((db) =>
  db
    .select({ ...pageColumns, content: cmsPages.content })
    .from(cmsPages)
    .where(
      and(
        eq(cmsPages.websiteId, sql.placeholder('websiteId')),
        publishedOrDraft(cmsPages.status, cmsPages.id),
        eq(sql`lower(${cmsPages.slug})`, sql.placeholder('slug')),
        whenGiven(cmsPages.language, 'language', 'text'),
      ),
    )
    .orderBy(asc(cmsPages.createdAt), asc(cmsPages.id))
    .limit(1)
    .prepare('delivery_page_by_slug'),
);

// A website's food menus, each query prepared once (store/prepared.ts): every visitor of every
// restaurant's website reads them, and assembling the SQL was a fifth of the server's time.
/** The published food menus (or the draft a preview link shows), all of them or one, in one language or all. */
const gastroMenusQuery = prepared((db) =>
  db
    .select({ id: gastroMenus.id, name: gastroMenus.name, description: gastroMenus.description, language: gastroMenus.language })
    .from(gastroMenus)
    .where(
      and(
        eq(gastroMenus.websiteId, sql.placeholder('websiteId')),
        publishedOrDraft(gastroMenus.status, gastroMenus.id),
        whenGiven(gastroMenus.id, 'menuId', 'uuid'),
        whenGiven(gastroMenus.language, 'language', 'text'),
      ),
    )
    .orderBy(asc(gastroMenus.name), asc(gastroMenus.id))
    .prepare('delivery_gastro_menus'),
);
/** A website's rows of the parents given (food menus, menus, sliders): the placeholder `name` holds their ids. */
const inList = (websiteColumn: AnyPgColumn, parentColumn: AnyPgColumn, name: string) =>
  and(eq(websiteColumn, sql.placeholder('websiteId')), sql`${parentColumn} = any(${sql.placeholder(name)}::uuid[])`);
const gastroCategoriesQuery = prepared((db) =>
  db
    .select({ menuId: gastroCategories.menuId, id: gastroCategories.id, name: gastroCategories.name, description: gastroCategories.description })
    .from(gastroCategories)
    .where(inList(gastroCategories.websiteId, gastroCategories.menuId, 'menuIds'))
    .orderBy(asc(gastroCategories.position), asc(gastroCategories.id))
    .prepare('delivery_gastro_categories'),
);
const gastroDishesQuery = prepared((db) =>
  db
    .select({
      menuId: gastroItems.menuId,
      categoryId: gastroItems.categoryId,
      id: gastroItems.id,
      name: gastroItems.name,
      description: gastroItems.description,
      price: gastroItems.price,
      currency: gastroItems.currency,
      available: gastroItems.available,
      allergens: gastroItems.allergenIds,
      image: imageColumns,
    })
    .from(gastroItems)
    .leftJoin(media, pictureOf(gastroItems.mediaId, gastroItems.websiteId))
    .where(inList(gastroItems.websiteId, gastroItems.menuId, 'menuIds'))
    .orderBy(asc(gastroItems.position), asc(gastroItems.id))
    .prepare('delivery_gastro_dishes'),
);
const gastroAllergensQuery = prepared((db) =>
  db
    .select({ id: gastroAllergens.id, identifier: gastroAllergens.identifier, name: gastroAllergens.name, content: gastroAllergens.content })
    .from(gastroAllergens)
    .where(eq(gastroAllergens.websiteId, sql.placeholder('websiteId')))
    .orderBy(asc(gastroAllergens.identifier), asc(gastroAllergens.name), asc(gastroAllergens.id))
    .prepare('delivery_gastro_allergens'),
);

/** A website's menus: all of them, of one location, or the one named. */
const menusQuery = prepared((db) =>
  db
    .select({ id: menus.id, name: menus.name, location: menus.location })
    .from(menus)
    .where(and(eq(menus.websiteId, sql.placeholder('websiteId')), whenGiven(menus.location, 'location', 'text'), whenGiven(menus.id, 'menuId', 'uuid')))
    .orderBy(asc(menus.name), asc(menus.id))
    .prepare('delivery_menus'),
);
/** The items of the menus given, with the slug of the published page each leads to (null: none, or not published). */
const menuItemsQuery = prepared((db) =>
  db
    .select({
      id: menuItems.id,
      menuId: menuItems.menuId,
      parentId: menuItems.parentId,
      label: menuItems.label,
      url: menuItems.url,
      pageId: menuItems.pageId,
      openInNewTab: menuItems.openInNewTab,
      slug: cmsPages.slug,
      language: cmsPages.language,
    })
    .from(menuItems)
    .leftJoin(cmsPages, and(eq(cmsPages.id, menuItems.pageId), eq(cmsPages.websiteId, menuItems.websiteId), eq(cmsPages.status, 'published')))
    .where(inList(menuItems.websiteId, menuItems.menuId, 'menuIds'))
    .orderBy(asc(menuItems.position), asc(menuItems.id))
    .prepare('delivery_menu_items'),
);

const postCategoriesQuery = prepared((db) =>
  db
    .select({ id: postCategories.id, name: postCategories.name, slug: postCategories.slug, description: postCategories.description })
    .from(postCategories)
    .where(eq(postCategories.websiteId, sql.placeholder('websiteId')))
    .orderBy(asc(postCategories.name), asc(postCategories.id))
    .prepare('delivery_post_categories'),
);
/** A website's published posts whose time has come (the placeholder `now`). */
const visiblePosts = and(eq(posts.websiteId, sql.placeholder('websiteId')), eq(posts.status, 'published'), lte(publishedAt, sql`${sql.placeholder('now')}::timestamptz`));
/** In a category named by its id or its slug (the placeholder `category`, lower case), or in any when it is null. */
const inCategory = sql`(${sql.placeholder('category')}::text is null or ${posts.categoryId}::text = ${sql.placeholder('category')}::text or lower(${postCategories.slug}) = ${sql.placeholder('category')}::text)`;
const visiblePostsQuery = prepared((db) =>
  db
    .select(postColumns)
    .from(posts)
    .leftJoin(postCategories, categoryOfPost)
    .leftJoin(media, coverOfPost)
    .where(and(visiblePosts, inCategory))
    .orderBy(desc(publishedAt), desc(posts.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('delivery_posts'),
);
const visiblePostCount = prepared((db) =>
  db.select({ n: count() }).from(posts).leftJoin(postCategories, categoryOfPost).where(and(visiblePosts, inCategory)).prepare('delivery_post_count'),
);
/** A post by its slug: one whose time has come, or the draft a preview link shows. */
const postBySlug = prepared((db) =>
  db
    .select({ ...postColumns, content: posts.content })
    .from(posts)
    .leftJoin(postCategories, categoryOfPost)
    .leftJoin(media, coverOfPost)
    .where(
      and(
        or(visiblePosts, and(eq(posts.websiteId, sql.placeholder('websiteId')), eq(posts.id, sql`${sql.placeholder('draft')}::uuid`))),
        eq(sql`lower(${posts.slug})`, sql.placeholder('slug')),
      ),
    )
    .limit(1)
    .prepare('delivery_post_by_slug'),
);

/** The active hero sliders, or the one named. */
const heroSlidersQuery = prepared((db) =>
  db
    .select({ id: heroSliders.id, name: heroSliders.name, autoplay: heroSliders.autoplay, interval: heroSliders.interval })
    .from(heroSliders)
    .where(and(eq(heroSliders.websiteId, sql.placeholder('websiteId')), eq(heroSliders.status, 'active'), whenGiven(heroSliders.id, 'sliderId', 'uuid')))
    .orderBy(asc(heroSliders.name), asc(heroSliders.id))
    .prepare('delivery_hero_sliders'),
);
const heroSlidesQuery = prepared((db) =>
  db
    .select({
      sliderId: heroSlides.sliderId,
      id: heroSlides.id,
      title: heroSlides.title,
      subtitle: heroSlides.subtitle,
      buttonLabel: heroSlides.buttonLabel,
      buttonUrl: heroSlides.buttonUrl,
      image: imageColumns,
    })
    .from(heroSlides)
    .leftJoin(media, pictureOf(heroSlides.mediaId, heroSlides.websiteId))
    .where(inList(heroSlides.websiteId, heroSlides.sliderId, 'sliderIds'))
    .orderBy(asc(heroSlides.position), asc(heroSlides.id))
    .prepare('delivery_hero_slides'),
);
/** The active gallery sliders, or the one named. */
const gallerySlidersQuery = prepared((db) =>
  db
    .select({ id: gallerySliders.id, name: gallerySliders.name, description: gallerySliders.description })
    .from(gallerySliders)
    .where(and(eq(gallerySliders.websiteId, sql.placeholder('websiteId')), eq(gallerySliders.status, 'active'), whenGiven(gallerySliders.id, 'sliderId', 'uuid')))
    .orderBy(asc(gallerySliders.name), asc(gallerySliders.id))
    .prepare('delivery_gallery_sliders'),
);
const gallerySlidesQuery = prepared((db) =>
  db
    .select({ sliderId: gallerySlides.sliderId, id: gallerySlides.id, caption: gallerySlides.caption, image: imageColumns })
    .from(gallerySlides)
    .innerJoin(media, pictureOf(gallerySlides.mediaId, gallerySlides.websiteId))
    .where(inList(gallerySlides.websiteId, gallerySlides.sliderId, 'sliderIds'))
    .orderBy(asc(gallerySlides.position), asc(gallerySlides.id))
    .prepare('delivery_gallery_slides'),
);

const mediaQuery = prepared((db) =>
  db
    .select({ ...imageColumns, fileName: media.fileName, mimetype: media.mimetype, size: media.size, description: media.description })
    .from(media)
    .where(and(eq(media.id, sql`${sql.placeholder('mediaId')}::uuid`), eq(media.websiteId, sql.placeholder('websiteId'))))
    .prepare('delivery_media'),
);
/** The website's SEO settings while they are switched on. */
const seoQuery = prepared((db) =>
  db
    .select({ title: seo.title, description: seo.description, keywords: seo.keywords, robots: seo.robots, sitemap: seo.sitemap, ogImage: imageColumns })
    .from(seo)
    .leftJoin(media, pictureOf(seo.ogImageMediaId, seo.websiteId))
    .where(and(eq(seo.websiteId, sql.placeholder('websiteId')), eq(seo.isActive, true)))
    .prepare('delivery_seo'),
);

export async function publicRoutes(app: FastifyInstance, { store, clock, secret, memos }: Pick<ServerContext, 'store' | 'clock' | 'secret' | 'memos'>) {
  const db = store.db;
  // The tag of each answer, by website and address, until the website changes (live/memo.ts): a
  // client (a CDN revalidating) that holds it hears 304 before anything is read or built.
  const tags = memos.memo<string>({ max: TAGS_KEPT, ttlMs: TAG_KEPT_MS });
  const marks = new WeakMap<FastifyRequest, number>();

  app.addHook('preValidation', async (request, reply) => {
    if (!request.website || previewing(request)) return;
    const known = tags.get(addressOf(request));
    if (known !== undefined && held(request.headers['if-none-match'], known)) return tagged(request, reply, known).code(304).send();
    marks.set(request, tags.mark());
  });

  /** The answer as its route's schema serializes it, once: tagged, its tag kept, and a 304 when the client holds that tag. */
  function answer<T>(request: FastifyRequest, reply: FastifyReply, body: T): FastifyReply {
    // Text: http/serializer.ts makes JSON.
    const json = String(reply.serialize(body));
    const etag = `W/"${hash('sha256', `${websiteOf(request)}\n${json}`, 'base64url')}"`;
    const mark = marks.get(request);
    if (mark !== undefined) tags.keep(addressOf(request), websiteOf(request), etag, mark);
    tagged(request, reply, etag);
    return held(request.headers['if-none-match'], etag) ? reply.code(304).send() : reply.type('application/json; charset=utf-8').send(json);
  }

  /**
   * The draft of `kind` a preview token in the request shows (contract/preview.ts): its id, else
   * undefined (no token, or one for a record of another kind). A token that is forged, expired or of
   * another website is refused, so a website's preview page can say why it shows nothing.
   */
  function draftShown(request: FastifyRequest, kind: PreviewKind): string | undefined {
    const token = request.headers[PREVIEW_HEADER.toLowerCase()];
    if (token === undefined) return undefined;
    const shown = typeof token === 'string' ? readPreviewToken(secret, token, websiteOf(request), clock()) : null;
    if (!shown) throw new HttpError(401, messages.previewInvalid);
    return shown.kind === kind ? shown.id : undefined;
  }
  // The policy is each action's ('apiKey'); the CORS is the delivery API's own (openToWebsites).
  const options = { config: { cors: false } } as const;

  app.addHook('onRequest', openToWebsites);
  // One preflight for the whole delivery API, a contact form's submission (routes/form-submissions.ts) included.
  app.options('/api/public/*', { config: { policy: 'public', cors: false }, schema: { hide: true } }, (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, POST')
      .header('access-control-allow-headers', `X-API-Key, ${PREVIEW_HEADER}, If-None-Match, Content-Type, Accept-Language`)
      .header('access-control-max-age', '86400')
      .send(),
  );

  registerAction(
    app,
    delivery.publicPages,
    async ({ query }, request, reply) => {
      const { language, ...paged } = query;
      const of = { websiteId: websiteOf(request), language: language ?? null };
      const [rows, [total]] = await Promise.all([
        publishedPages(db).execute({ ...of, limit: paged.limit, offset: (paged.page - 1) * paged.limit }),
        publishedPageCount(db).execute(of),
      ]);
      const data = rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
      return answer(request, reply, ok(data, { pagination: pagination(paged, total?.n ?? 0) }));
    },
    options,
  );

  registerAction(
    app,
    delivery.publicPage,
    async ({ params, query }, request, reply) => {
      const { language } = query;
      const draft = draftShown(request, 'page');
      const [row] = await pageBySlug(db).execute({ websiteId: websiteOf(request), draft: draft ?? null, slug: params.slug.toLowerCase(), language: language ?? null });
      if (!row) throw new HttpError(404, messages.notFound);
      return answer(request, reply, ok({ ...row, updatedAt: row.updatedAt.toISOString() }));
    },
    options,
  );

  /** Menus with their items as trees (all of a location, or the one named): children under their parent, each level in the order set. */
  async function menusWith(websiteId: string, { location, menuId }: { location?: string; menuId?: string }): Promise<Menu[]> {
    const found = await menusQuery(db).execute({ websiteId, location: location ?? null, menuId: menuId ?? null });
    if (found.length === 0) return [];
    const items = await menuItemsQuery(db).execute({ websiteId, menuIds: found.map((menu) => menu.id) });
    const under = groupedBy(
      items.map((item) => ({ ...item, place: `${item.menuId}/${item.parentId ?? ''}` })),
      'place',
    );
    const level = (menu: string, parentId: string): MenuEntry[] =>
      (under.get(`${menu}/${parentId}`) ?? []).flatMap((item) => {
        // An item leading to a page that is not published is left out, and the items under it with it.
        if (item.pageId && item.slug === null) return [];
        const page = item.slug === null ? null : { slug: item.slug, language: item.language! };
        return [{ id: item.id, label: item.label, url: page ? `/${page.slug}` : item.url, page, openInNewTab: item.openInNewTab, children: level(menu, item.id) }];
      });
    return found.map((menu) => ({ ...menu, items: level(menu.id, '') }));
  }

  registerAction(
    app,
    delivery.publicMenus,
    async ({ query }, request, reply) => {
      const { location } = query;
      return answer(request, reply, ok(await menusWith(websiteOf(request), { location })));
    },
    options,
  );

  registerAction(
    app,
    delivery.publicMenu,
    async ({ params }, request, reply) => {
      const { menuId } = params;
      const [menu] = isUuid(menuId) ? await menusWith(websiteOf(request), { menuId }) : [];
      if (!menu) throw new HttpError(404, messages.notFound);
      return answer(request, reply, ok(menu));
    },
    options,
  );

  registerAction(
    app,
    delivery.publicPostCategories,
    async (_input, request, reply) => {
      const rows = await postCategoriesQuery(db).execute({ websiteId: websiteOf(request) });
      return answer(request, reply, ok(rows));
    },
    options,
  );

  registerAction(
    app,
    delivery.publicPosts,
    async ({ query }, request, reply) => {
      const { category, ...paged } = query;
      const of = { websiteId: websiteOf(request), now: clock().toISOString(), category: category?.toLowerCase() ?? null };
      const [rows, [total]] = await Promise.all([
        visiblePostsQuery(db).execute({ ...of, limit: paged.limit, offset: (paged.page - 1) * paged.limit }),
        visiblePostCount(db).execute(of),
      ]);
      return answer(request, reply, ok(rows.map(postOf), { pagination: pagination(paged, total?.n ?? 0) }));
    },
    options,
  );

  registerAction(
    app,
    delivery.publicPost,
    async ({ params }, request, reply) => {
      const draft = draftShown(request, 'post');
      const [row] = await postBySlug(db).execute({ websiteId: websiteOf(request), now: clock().toISOString(), draft: draft ?? null, slug: params.slug.toLowerCase() });
      if (!row) throw new HttpError(404, messages.notFound);
      return answer(request, reply, ok(postOf(row)));
    },
    options,
  );

  /** The active hero sliders (or the one named), each with its slides in order. */
  async function heroSlidersOf(websiteId: string, sliderId?: string): Promise<HeroSlider[]> {
    const sliders = await heroSlidersQuery(db).execute({ websiteId, sliderId: sliderId ?? null });
    if (sliders.length === 0) return [];
    const slides = await heroSlidesQuery(db).execute({ websiteId, sliderIds: sliders.map((slider) => slider.id) });
    const bySlider = groupedBy(slides, 'sliderId');
    return sliders.map((slider) => ({ ...slider, slides: (bySlider.get(slider.id) ?? []).map((slide) => ({ ...slide, image: slide.image && image(slide.image) })) }));
  }

  /** The active gallery sliders (or the one named), each with its pictures in order. */
  async function gallerySlidersOf(websiteId: string, sliderId?: string): Promise<GallerySlider[]> {
    const sliders = await gallerySlidersQuery(db).execute({ websiteId, sliderId: sliderId ?? null });
    if (sliders.length === 0) return [];
    const slides = await gallerySlidesQuery(db).execute({ websiteId, sliderIds: sliders.map((slider) => slider.id) });
    const bySlider = groupedBy(slides, 'sliderId');
    return sliders.map((slider) => ({ ...slider, slides: (bySlider.get(slider.id) ?? []).map((slide) => ({ ...slide, image: image(slide.image) })) }));
  }

  /** A kind of slider: all active ones, and one by its id. */
  function sliderRoutes<All extends AnyAction, One extends AnyAction>(all: All, one: One, load: (websiteId: string, sliderId?: string) => Promise<ActionAnswer<One>[]>) {
    registerAction(app, all, async (_input, request, reply) => answer(request, reply, ok((await load(websiteOf(request))) as ActionAnswer<All>)), options);
    registerAction(
      app,
      one,
      async ({ params }, request, reply) => {
        const { sliderId } = params as { sliderId: string };
        const [slider] = isUuid(sliderId) ? await load(websiteOf(request), sliderId) : [];
        if (!slider) throw new HttpError(404, messages.notFound);
        return answer(request, reply, ok(slider));
      },
      options,
    );
  }
  sliderRoutes(delivery.publicHeroSliders, delivery.publicHeroSlider, heroSlidersOf);
  sliderRoutes(delivery.publicGallerySliders, delivery.publicGallerySlider, gallerySlidersOf);

  registerAction(
    app,
    delivery.publicMedia,
    async ({ params }, request, reply) => {
      const { mediaId } = params;
      const [row] = isUuid(mediaId) ? await mediaQuery(db).execute({ websiteId: websiteOf(request), mediaId }) : [];
      if (!row) throw new HttpError(404, messages.notFound);
      return answer(request, reply, ok(image(row)));
    },
    options,
  );

  /**
   * The published food menus (or the one named), each whole: categories and dishes in their order,
   * and the legend of the allergens its dishes name. `language` picks the menus written in it;
   * the allergens' names are in `namesIn`, else the menu's own language, else their `name`.
   */
  async function gastroMenusOf(
    websiteId: string,
    { menuId, language, namesIn = language, draft }: { menuId?: string; language?: string; namesIn?: string; draft?: string },
  ): Promise<GastroMenu[]> {
    const found = await gastroMenusQuery(db).execute({ websiteId, draft: draft ?? null, menuId: menuId ?? null, language: language ?? null });
    if (found.length === 0) return [];
    const menuIds = found.map((menu) => menu.id);
    const [categories, dishes, allergens] = await Promise.all([
      gastroCategoriesQuery(db).execute({ websiteId, menuIds }),
      gastroDishesQuery(db).execute({ websiteId, menuIds }),
      gastroAllergensQuery(db).execute({ websiteId }),
    ]);
    const known = new Set(allergens.map((allergen) => allergen.id));
    const placed = groupedBy(
      dishes.map(({ menuId: menu, categoryId, allergens: named, image: picture, ...dish }) => ({
        ...dish,
        place: `${menu}/${categoryId ?? ''}`,
        image: picture && image(picture),
        allergens: named.filter((id) => known.has(id)),
      })),
      'place',
    );
    const categoriesOf = groupedBy(categories, 'menuId');
    return found.map((menu) => {
      const inMenu = (categoryId: string) => placed.get(`${menu.id}/${categoryId}`) ?? [];
      const menuCategories = (categoriesOf.get(menu.id) ?? []).map((category) => ({ ...category, items: inMenu(category.id) }));
      const loose = inMenu('');
      const used = new Set([...loose, ...menuCategories.flatMap((category) => category.items)].flatMap((dish) => dish.allergens));
      const lang = namesIn ?? menu.language;
      const legend = allergens
        .filter((allergen) => used.has(allergen.id))
        .map(({ id, identifier, name, content }) => ({ id, identifier, name: content[lang]?.name ?? name }));
      return { ...menu, categories: menuCategories, items: loose, allergens: legend };
    });
  }

  registerAction(
    app,
    delivery.publicGastroMenus,
    async ({ query }, request, reply) => answer(request, reply, ok(await gastroMenusOf(websiteOf(request), { language: query.language }))),
    options,
  );

  registerAction(
    app,
    delivery.publicGastroMenu,
    async ({ params, query }, request, reply) => {
      const { menuId } = params;
      const draft = draftShown(request, 'gastroMenu');
      const [menu] = isUuid(menuId) ? await gastroMenusOf(websiteOf(request), { menuId, namesIn: query.language, draft }) : [];
      if (!menu) throw new HttpError(404, messages.notFound);
      return answer(request, reply, ok(menu));
    },
    options,
  );

  // A website without SEO settings, or with them switched off, answers null: nothing to put in its <head>.
  registerAction(
    app,
    delivery.publicSeo,
    async (_input, request, reply) => {
      const [row] = await seoQuery(db).execute({ websiteId: websiteOf(request) });
      return answer(request, reply, ok(row ? { ...row, ogImage: row.ogImage && image(row.ogImage) } : null));
    },
    options,
  );
}
