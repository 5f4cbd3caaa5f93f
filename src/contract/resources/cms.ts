import { z } from 'zod/mini';
import { defineAction, WebsiteParams } from '../action';
import { messages } from '../messages';
import { defineResource } from '../resource';
import { LanguageCode } from './catalogs';

// A website's CMS content (spec §7 CMS pages, Menus, Posts, Hero sliders, Gallery sliders, Media,
// SEO). Each entry is website-scoped with its permission module (spec §6); children of a record
// (menu items, slides) name their parent in the path and keep the order a person sets (ADR 012).

const required = messages.required.id;
const tooLong = messages.tooLong.id;

const text = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, tooLong)), '');
const Title = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(200, tooLong));
/** Empty: the server derives it from the title. */
export const Slug = z._default(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(120, tooLong), z.regex(/^([a-z0-9]+(-[a-z0-9]+)*)?$/, messages.slugFormat.id)), '');
/** Rich text as HTML; the server keeps only what its allowlist allows (server/content/sanitize.ts). */
const RichText = z._default(z.string().check(z.maxLength(200_000, tooLong)), '');
const Reference = z._default(z.nullable(z.uuid()), null);
/** A link a visitor follows: an absolute http(s) or mailto address, a path on the site, or nothing. */
export const LinkUrl = z._default(
  z.string().check(z.trim(), z.maxLength(2000, tooLong), z.regex(/^(|https?:\/\/[^\s]+|mailto:[^\s]+|\/[^\s]*|#[^\s]*)$/i, messages.urlFormat.id)),
  '',
);

export const CONTENT_STATUSES = ['draft', 'published'] as const;
export const ContentStatus = z.enum(CONTENT_STATUSES);
export const SLIDER_STATUSES = ['active', 'inactive'] as const;
export const SliderStatus = z.enum(SLIDER_STATUSES);

export const pages = defineResource({
  name: 'pages',
  label: { one: /*i18n*/ { id: 'resource.page', message: 'page' }, other: /*i18n*/ { id: 'resource.pages', message: 'pages' } },
  scope: 'website',
  module: 'pages',
  paths: { list: '/api/cms/pages/:websiteId', item: '/api/cms/pages/:websiteId/:pageId' },
  preview: { kind: 'page' },
  title: 'title',
  fields: {
    title: Title,
    slug: Slug,
    status: z._default(ContentStatus, 'draft'),
    language: z._default(LanguageCode, 'en'),
    content: RichText,
    metaTitle: text(200),
    metaDescription: text(500),
    order: z._default(z.int().check(z.minimum(0), z.maximum(1_000_000)), 0),
  },
  filters: { status: ContentStatus, language: z.string() },
  search: ['title', 'slug'],
  sort: ['order', 'title', 'createdAt', 'updatedAt'],
  unique: ['slug'],
});

export const menus = defineResource({
  name: 'menus',
  label: { one: /*i18n*/ { id: 'resource.menu', message: 'menu' }, other: /*i18n*/ { id: 'resource.menus', message: 'menus' } },
  scope: 'website',
  module: 'menus',
  paths: { list: '/api/cms/menus/:websiteId', item: '/api/cms/menus/:websiteId/menu/:menuId' },
  title: 'name',
  fields: { name: Title, location: text(60) },
  filters: {},
  search: ['name', 'location'],
  sort: ['name', 'createdAt', 'updatedAt'],
});

/** One entry of a menu (spec §3: it carries `id` from `_id`): a page or a URL, optionally under another item. */
export const menuItems = defineResource({
  name: 'menuItems',
  label: { one: /*i18n*/ { id: 'resource.menuItem', message: 'menu item' }, other: /*i18n*/ { id: 'resource.menuItems', message: 'menu items' } },
  scope: 'website',
  module: 'menus',
  parent: { param: 'menuId', resource: 'menus' },
  order: { path: '/api/cms/menus/:websiteId/menu/:menuId/reorder', field: 'items', failed: messages.reorderMenuItemsFailed },
  paths: { list: '/api/cms/menus/:websiteId/menu/:menuId/items', item: '/api/cms/menus/:websiteId/menu/:menuId/items/:itemId' },
  title: 'label',
  fields: { label: Title, pageId: Reference, url: LinkUrl, parentId: Reference, openInNewTab: z._default(z.boolean(), false) },
  computed: { id: z.uuid(), menuId: z.uuid(), position: z.int() },
  filters: {},
  search: ['label'],
  sort: ['position'],
  references: { pageId: 'pages', parentId: 'menuItems' },
});

export const postCategories = defineResource({
  name: 'postCategories',
  label: { one: /*i18n*/ { id: 'resource.postCategory', message: 'post category' }, other: /*i18n*/ { id: 'resource.postCategories', message: 'post categories' } },
  scope: 'website',
  module: 'posts',
  paths: { list: '/api/cms/posts/:websiteId/categories', item: '/api/cms/posts/:websiteId/categories/:categoryId' },
  title: 'name',
  fields: { name: Title, slug: Slug, description: text(1000) },
  filters: {},
  search: ['name', 'slug'],
  sort: ['name', 'createdAt'],
  unique: ['slug'],
});

export const posts = defineResource({
  name: 'posts',
  label: { one: /*i18n*/ { id: 'resource.post', message: 'post' }, other: /*i18n*/ { id: 'resource.posts', message: 'posts' } },
  scope: 'website',
  module: 'posts',
  paths: { list: '/api/cms/posts/:websiteId', item: '/api/cms/posts/:websiteId/:postId', stats: '/api/cms/posts/:websiteId/stats' },
  preview: { kind: 'post' },
  title: 'title',
  fields: {
    title: Title,
    slug: Slug,
    excerpt: text(1000),
    content: RichText,
    coverMediaId: Reference,
    categoryId: Reference,
    status: z._default(ContentStatus, 'draft'),
    /** When it was (or will be) published; a post published without one gets the moment it was. */
    publishedAt: z._default(z.nullable(z.iso.datetime({ offset: true })), null),
  },
  computed: { coverThumbUrl: z.optional(z.nullable(z.string())) },
  filters: { status: ContentStatus },
  // Spec §7 names the category filter `category`.
  queryOptions: { category: z.uuid() },
  search: ['title', 'excerpt'],
  sort: ['createdAt', 'title', 'publishedAt', 'updatedAt'],
  unique: ['slug'],
  references: { coverMediaId: 'media', categoryId: 'postCategories' },
});

export const heroSliders = defineResource({
  name: 'heroSliders',
  label: { one: /*i18n*/ { id: 'resource.heroSlider', message: 'hero slider' }, other: /*i18n*/ { id: 'resource.heroSliders', message: 'hero sliders' } },
  scope: 'website',
  module: 'heroSliders',
  paths: { list: '/api/cms/hero-sliders/:websiteId', item: '/api/cms/hero-sliders/:websiteId/:sliderId', stats: '/api/cms/hero-sliders/:websiteId/stats' },
  title: 'name',
  fields: {
    name: Title,
    status: z._default(SliderStatus, 'active'),
    autoplay: z._default(z.boolean(), true),
    interval: z._default(z.int().check(z.minimum(1), z.maximum(60)), 5),
  },
  filters: { status: SliderStatus },
  search: ['name'],
  sort: ['name', 'createdAt', 'updatedAt'],
});

export const heroSlides = defineResource({
  name: 'heroSlides',
  label: { one: /*i18n*/ { id: 'resource.slide', message: 'slide' }, other: /*i18n*/ { id: 'resource.slides', message: 'slides' } },
  scope: 'website',
  module: 'heroSliders',
  parent: { param: 'sliderId', resource: 'heroSliders' },
  order: { path: '/api/cms/hero-sliders/:websiteId/:sliderId/slide-order', field: 'slides', failed: messages.slideOrderFailed },
  paths: { list: '/api/cms/hero-sliders/:websiteId/:sliderId/slides', item: '/api/cms/hero-sliders/:websiteId/:sliderId/slides/:slideId' },
  title: 'title',
  fields: { title: Title, subtitle: text(300), mediaId: Reference, buttonLabel: text(60), buttonUrl: LinkUrl },
  computed: { id: z.uuid(), sliderId: z.uuid(), position: z.int(), thumbUrl: z.optional(z.nullable(z.string())) },
  filters: {},
  search: ['title'],
  sort: ['position'],
  references: { mediaId: 'media' },
});

export const gallerySliders = defineResource({
  name: 'gallerySliders',
  label: { one: /*i18n*/ { id: 'resource.gallerySlider', message: 'gallery slider' }, other: /*i18n*/ { id: 'resource.gallerySliders', message: 'gallery sliders' } },
  scope: 'website',
  module: 'gallerySliders',
  paths: { list: '/api/cms/gallery-sliders/:websiteId', item: '/api/cms/gallery-sliders/:websiteId/gallery-sliders/:sliderId' },
  title: 'name',
  fields: { name: Title, description: text(1000), status: z._default(SliderStatus, 'active') },
  filters: { status: SliderStatus },
  search: ['name', 'description'],
  sort: ['name', 'createdAt', 'updatedAt'],
});

export const gallerySlides = defineResource({
  name: 'gallerySlides',
  label: { one: /*i18n*/ { id: 'resource.picture', message: 'picture' }, other: /*i18n*/ { id: 'resource.pictures', message: 'pictures' } },
  scope: 'website',
  module: 'gallerySliders',
  parent: { param: 'sliderId', resource: 'gallerySliders' },
  order: { path: '/api/cms/gallery-sliders/:websiteId/gallery-sliders/:sliderId/slide-order', field: 'slides', failed: messages.slideOrderFailed },
  paths: {
    list: '/api/cms/gallery-sliders/:websiteId/gallery-sliders/:sliderId/slides',
    item: '/api/cms/gallery-sliders/:websiteId/gallery-sliders/:sliderId/slides/:slideId',
  },
  title: 'caption',
  fields: { mediaId: z.uuid(required), caption: text(300) },
  computed: { id: z.uuid(), sliderId: z.uuid(), position: z.int(), thumbUrl: z.optional(z.nullable(z.string())) },
  filters: {},
  search: ['caption'],
  sort: ['position'],
  references: { mediaId: 'media' },
});

export const MEDIA_SORTS = ['createdAt', 'fileName', 'size', 'updatedAt'] as const;

/**
 * A file of the website's media library (spec §3 upload fields: file(s), alt, description, folder,
 * compressImages; the single upload may name its record's `_id`, as a create may, DESIGN §4).
 */
export const media = defineResource({
  name: 'media',
  label: { one: /*i18n*/ { id: 'resource.mediaItem', message: 'file' }, other: /*i18n*/ { id: 'resource.mediaItems', message: 'files' } },
  scope: 'website',
  module: 'media',
  createdBy: 'upload',
  paths: { list: '/api/cms/media/:websiteId', item: '/api/cms/media/:websiteId/media/:mediaId', stats: '/api/cms/media/:websiteId/stats' },
  title: 'fileName',
  fields: { alt: text(300), description: text(1000), folder: text(120) },
  computed: {
    fileName: z.string(),
    mimetype: z.string(),
    size: z.int(),
    width: z.nullable(z.int()),
    height: z.nullable(z.int()),
    /** Where the file is served, and its small preview for grids (images only). */
    url: z.optional(z.string()),
    thumbUrl: z.optional(z.nullable(z.string())),
  },
  filters: { folder: z.string() },
  // `mimetype` matches a whole type (`image/webp`) or its family (`image`).
  queryOptions: { mimetype: z.string().check(z.maxLength(100)) },
  search: ['fileName', 'alt', 'description'],
  sort: [...MEDIA_SORTS],
});

/**
 * The uploads that make the library's records, as multipart: the file (`file`), its `alt`,
 * `description` and `folder`, `compressImages` (on unless it says otherwise), and, for one file,
 * the record's own `_id`. An upload waits on a device in its own queue (db/upload-or-queue.ts).
 */
export const uploadMedia = defineAction({
  name: 'uploadMedia',
  method: 'POST',
  path: '/api/cms/media/:websiteId/upload',
  policy: media.access.create,
  summary: 'Uploads one file into the website’s media library.',
  params: WebsiteParams,
  multipart: true,
  answer: media.entity,
  status: 201,
  failed: messages.uploadFailed,
});

export const uploadMediaFiles = defineAction({
  name: 'uploadMediaFiles',
  method: 'POST',
  path: '/api/cms/media/:websiteId/upload-multiple',
  policy: media.access.create,
  summary: 'Uploads several files into the website’s media library, all or none.',
  params: WebsiteParams,
  multipart: true,
  answer: z.array(media.entity),
  status: 201,
  failed: messages.uploadFailed,
});

/** A website's search-engine settings (spec §7 SEO): one record per website, behind the seo feature. */
export const seo = defineResource({
  name: 'seo',
  label: { one: /*i18n*/ { id: 'resource.seoSettings', message: 'SEO settings' }, other: /*i18n*/ { id: 'resource.seoSettingsPlural', message: 'SEO settings' } },
  scope: 'website',
  feature: 'seo',
  singleton: true,
  paths: { item: '/api/seo/website/:websiteId' },
  title: 'title',
  fields: {
    title: text(200),
    description: text(500),
    keywords: z._default(z.array(z.string().check(z.trim(), z.minLength(1, required), z.maxLength(60, tooLong))).check(z.maxLength(30, tooLong)), []),
    ogImageMediaId: Reference,
    robots: z._default(z.enum(['index, follow', 'noindex, follow', 'index, nofollow', 'noindex, nofollow']), 'index, follow'),
    sitemap: z._default(z.boolean(), true),
    isActive: z._default(z.boolean(), true),
  },
  computed: { ogImageThumbUrl: z.optional(z.nullable(z.string())) },
  // The list of every reachable website's settings (spec §7 `GET /api/seo`) filters by it.
  filters: { isActive: z.stringbool() },
  search: [],
  sort: ['updatedAt'],
  references: { ogImageMediaId: 'media' },
});

/** Spec §7 `GET /api/seo`: the settings of every website the caller reaches, when their role has the seo feature. */
export const reachableSeo = defineAction({
  name: 'reachableSeo',
  method: 'GET',
  path: '/api/seo',
  policy: 'authenticated',
  summary: 'Lists the SEO settings of every website the signed-in account reaches.',
  query: seo.query,
  answer: z.array(seo.entity),
});
