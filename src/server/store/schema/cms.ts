import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, pgEnum, pgTable, text, timestamp, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { alphabetical } from './collation';
import { entityColumns } from './columns';
import { websites } from './tenancy';

// The CMS of a website (spec §7): every table carries its website, and a reference between two of
// them is a composite key (website, id), so a row can only ever point at a row of its own website
// (ADR 010). A reference that may vanish is cleared by its own columns only (the id and the copied
// storage key): those SET NULL clauses are narrowed by hand in the migration, as drizzle writes
// them for every column.

const websiteColumn = () =>
  uuid('website_id')
    .notNull()
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' });

export const contentStatus = pgEnum('content_status', ['draft', 'published']);
export const sliderStatus = pgEnum('slider_status', ['active', 'inactive']);

/** A file of a website's media library; images keep a WebP copy and a thumbnail beside the original's facts. */
export const media = pgTable(
  'media',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    /** The name the file was uploaded with, made safe (never a path). */
    fileName: text('file_name').notNull(),
    alt: text('alt').notNull().default(''),
    description: text('description').notNull().default(''),
    folder: text('folder').notNull().default(''),
    /** From the file's bytes, not its name or the browser's word. */
    mimetype: text('mimetype').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** Storage keys (files/storage.ts): the server chose them, the answer shows their URLs. */
    storageKey: text('storage_key').notNull(),
    thumbKey: text('thumb_key'),
  },
  (t) => [
    unique('media_website_key').on(t.websiteId, t.id),
    index('media_website_created_idx').on(t.websiteId, t.createdAt),
    index('media_website_folder_idx').on(t.websiteId, t.folder),
    index('media_file_name_trgm').using('gin', sql`${t.fileName} gin_trgm_ops`),
  ],
);

/** A page of a website: rich content (sanitized HTML), unique by slug per language. */
export const cmsPages = pgTable(
  'cms_pages',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    status: contentStatus('status').notNull().default('draft'),
    language: text('language').notNull().default('en'),
    content: text('content').notNull().default(''),
    metaTitle: text('meta_title').notNull().default(''),
    metaDescription: text('meta_description').notNull().default(''),
    order: integer('sort_order').notNull().default(0),
  },
  (t) => [
    unique('cms_pages_website_key').on(t.websiteId, t.id),
    uniqueIndex('cms_pages_slug_key').on(t.websiteId, t.language, sql`lower(${t.slug})`),
    index('cms_pages_title_idx').on(t.websiteId, alphabetical(t.title), sql`id`),
    index('cms_pages_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
  ],
);

/** A navigation menu (header, footer); its items are rows of their own, in order. */
export const menus = pgTable(
  'menus',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    location: text('location').notNull().default(''),
  },
  (t) => [unique('menus_website_key').on(t.websiteId, t.id), index('menus_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`)],
);

/** One entry of a menu: a page of the website or a URL; `parentId` nests it under another item of the same menu. */
export const menuItems = pgTable(
  'menu_items',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    menuId: uuid('menu_id').notNull(),
    label: text('label').notNull(),
    pageId: uuid('page_id'),
    url: text('url').notNull().default(''),
    parentId: uuid('parent_id'),
    openInNewTab: boolean('open_in_new_tab').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    unique('menu_items_website_key').on(t.websiteId, t.id),
    unique('menu_items_menu_key').on(t.websiteId, t.menuId, t.id),
    foreignKey({ name: 'menu_items_menu_fk', columns: [t.websiteId, t.menuId], foreignColumns: [menus.websiteId, menus.id] }).onDelete('cascade'),
    foreignKey({ name: 'menu_items_page_fk', columns: [t.websiteId, t.pageId], foreignColumns: [cmsPages.websiteId, cmsPages.id] }).onDelete('set null'),
    // A parent is an item of the same menu; deleting it takes its children along.
    foreignKey({ name: 'menu_items_parent_fk', columns: [t.websiteId, t.menuId, t.parentId], foreignColumns: [t.websiteId, t.menuId, t.id] }).onDelete('cascade'),
    index('menu_items_menu_idx').on(t.menuId, t.position, t.id),
  ],
);

export const postCategories = pgTable(
  'post_categories',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [
    unique('post_categories_website_key').on(t.websiteId, t.id),
    uniqueIndex('post_categories_slug_key').on(t.websiteId, sql`lower(${t.slug})`),
    index('post_categories_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`),
  ],
);

export const posts = pgTable(
  'posts',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    excerpt: text('excerpt').notNull().default(''),
    content: text('content').notNull().default(''),
    coverMediaId: uuid('cover_media_id'),
    /** The cover's thumbnail's storage key, copied from its media record (content/media-links.ts): lists show it without a join. */
    coverKey: text('cover_key'),
    categoryId: uuid('category_id'),
    status: contentStatus('status').notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'string' }),
  },
  (t) => [
    uniqueIndex('posts_slug_key').on(t.websiteId, sql`lower(${t.slug})`),
    foreignKey({ name: 'posts_cover_fk', columns: [t.websiteId, t.coverMediaId], foreignColumns: [media.websiteId, media.id] }).onDelete('set null'),
    foreignKey({ name: 'posts_category_fk', columns: [t.websiteId, t.categoryId], foreignColumns: [postCategories.websiteId, postCategories.id] }).onDelete('set null'),
    index('posts_website_created_idx').on(t.websiteId, t.createdAt),
    index('posts_title_idx').on(t.websiteId, alphabetical(t.title), sql`id`),
    index('posts_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
  ],
);

/** The big pictures at the top of a website's pages. */
export const heroSliders = pgTable(
  'hero_sliders',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    status: sliderStatus('status').notNull().default('active'),
    autoplay: boolean('autoplay').notNull().default(true),
    /** Seconds each slide shows. */
    interval: integer('interval').notNull().default(5),
  },
  (t) => [unique('hero_sliders_website_key').on(t.websiteId, t.id), index('hero_sliders_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`)],
);

export const heroSlides = pgTable(
  'hero_slides',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    sliderId: uuid('slider_id').notNull(),
    title: text('title').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    mediaId: uuid('media_id'),
    imageKey: text('image_key'),
    buttonLabel: text('button_label').notNull().default(''),
    buttonUrl: text('button_url').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    foreignKey({ name: 'hero_slides_slider_fk', columns: [t.websiteId, t.sliderId], foreignColumns: [heroSliders.websiteId, heroSliders.id] }).onDelete('cascade'),
    foreignKey({ name: 'hero_slides_media_fk', columns: [t.websiteId, t.mediaId], foreignColumns: [media.websiteId, media.id] }).onDelete('set null'),
    index('hero_slides_slider_idx').on(t.sliderId, t.position, t.id),
  ],
);

export const gallerySliders = pgTable(
  'gallery_sliders',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: sliderStatus('status').notNull().default('active'),
  },
  (t) => [unique('gallery_sliders_website_key').on(t.websiteId, t.id), index('gallery_sliders_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`)],
);

export const gallerySlides = pgTable(
  'gallery_slides',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    sliderId: uuid('slider_id').notNull(),
    mediaId: uuid('media_id').notNull(),
    imageKey: text('image_key'),
    caption: text('caption').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    foreignKey({ name: 'gallery_slides_slider_fk', columns: [t.websiteId, t.sliderId], foreignColumns: [gallerySliders.websiteId, gallerySliders.id] }).onDelete('cascade'),
    // A picture on show is not deleted from the library from under its gallery.
    foreignKey({ name: 'gallery_slides_media_fk', columns: [t.websiteId, t.mediaId], foreignColumns: [media.websiteId, media.id] }).onDelete('restrict'),
    index('gallery_slides_slider_idx').on(t.sliderId, t.position, t.id),
  ],
);

/** A website's search-engine settings: one row per website (spec §7 SEO). */
export const seo = pgTable(
  'seo',
  {
    ...entityColumns,
    websiteId: websiteColumn().unique('seo_website_key'),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    keywords: text('keywords').array().notNull().default(sql`'{}'`),
    ogImageMediaId: uuid('og_image_media_id'),
    ogImageKey: text('og_image_key'),
    robots: text('robots').notNull().default('index, follow'),
    sitemap: boolean('sitemap').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [
    foreignKey({ name: 'seo_og_image_fk', columns: [t.websiteId, t.ogImageMediaId], foreignColumns: [media.websiteId, media.id] }).onDelete('set null'),
    index('seo_active_idx').on(t.isActive),
  ],
);
