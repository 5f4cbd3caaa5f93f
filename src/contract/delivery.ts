import { z } from 'zod/mini';
import { defineAction } from './action';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, optionalQuery } from './resource';

// The delivery API (spec: the websites themselves call it; server/routes/public.ts answers it).
// Read-only, answered to the website whose active key is in X-API-Key, and only what is
// published. Ids are `id` here: this is the websites' wire, not the admin's records.

const Id = z.uuid();
const Timestamp = z.iso.datetime({ offset: true });

/** A picture of the media library as a page shows it: where it is, and what an `<img>` needs. */
const Image = z.object({ id: Id, url: z.string(), thumbUrl: z.nullable(z.string()), alt: z.string(), width: z.nullable(z.int()), height: z.nullable(z.int()) });
const MediaFile = z.extend(Image, { fileName: z.string(), mimetype: z.string(), size: z.int(), description: z.string() });

const PageSummary = z.object({ id: Id, title: z.string(), slug: z.string(), language: z.string(), metaTitle: z.string(), metaDescription: z.string(), order: z.int(), updatedAt: Timestamp });
const Page = z.extend(PageSummary, { content: z.string() });

export interface MenuEntry {
  id: string;
  label: string;
  url: string;
  page: { slug: string; language: string } | null;
  openInNewTab: boolean;
  children: MenuEntry[];
}
/** Named, so the OpenAPI document can refer to it from inside itself. */
const MenuItem: z.ZodMiniType<MenuEntry> = z
  .object({
    id: Id,
    label: z.string(),
    /** An address, or the page's path (`/about`) when the item leads to a page. */
    url: z.string(),
    page: z.nullable(z.object({ slug: z.string(), language: z.string() })),
    openInNewTab: z.boolean(),
    get children() {
      return z.array(MenuItem);
    },
  })
  // Registered in place: a check would copy it, reading its children before MenuItem exists.
  .register(z.globalRegistry, { id: 'PublicMenuItem' });
const Menu = z.object({ id: Id, name: z.string(), location: z.string(), items: z.array(MenuItem) });
export type Menu = z.infer<typeof Menu>;

const Category = z.object({ id: Id, name: z.string(), slug: z.string(), description: z.string() });
const PostSummary = z.object({
  id: Id,
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  publishedAt: Timestamp,
  cover: z.nullable(Image),
  category: z.nullable(z.omit(Category, { description: true })),
});
const Post = z.extend(PostSummary, { content: z.string() });

const HeroSlider = z.object({
  id: Id,
  name: z.string(),
  autoplay: z.boolean(),
  interval: z.int(),
  slides: z.array(z.object({ id: Id, title: z.string(), subtitle: z.string(), buttonLabel: z.string(), buttonUrl: z.string(), image: z.nullable(Image) })),
});
export type HeroSlider = z.infer<typeof HeroSlider>;
const GallerySlider = z.object({ id: Id, name: z.string(), description: z.string(), slides: z.array(z.object({ id: Id, caption: z.string(), image: Image })) });
export type GallerySlider = z.infer<typeof GallerySlider>;
const GastroDish = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  price: z.int().check(z.describe('In cents of `currency`.')),
  currency: z.string(),
  /** Shown as sold out, not left out: the website decides. */
  available: z.boolean(),
  image: z.nullable(Image),
  allergens: z.array(Id).check(z.describe('Ids of entries of the menu’s `allergens` legend, in the order the dish names them.')),
});
const GastroMenu = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  language: z.string(),
  categories: z.array(z.object({ id: Id, name: z.string(), description: z.string(), items: z.array(GastroDish) })),
  items: z.array(GastroDish).check(z.describe('Dishes in no category.')),
  allergens: z
    .array(z.object({ id: Id, identifier: z.nullable(z.string()), name: z.string() }))
    .check(z.describe('The allergens the menu’s dishes name, by letter, with their names in the language asked for (else the menu’s).')),
});
export type GastroMenu = z.infer<typeof GastroMenu>;
const Seo = z.object({ title: z.string(), description: z.string(), keywords: z.array(z.string()), robots: z.string(), sitemap: z.boolean(), ogImage: z.nullable(Image) });

/** A whole number of a query string, from 1 to `max`. */
const count = (max: number) => z.coerce.number().check(z.int(), z.minimum(1), z.maximum(max));
const Paging = {
  page: z._default(optionalQuery(count(1_000_000)), 1),
  limit: z._default(optionalQuery(count(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
};
const Language = optionalQuery(z.string().check(z.maxLength(20), z.describe('A language code (en, de); every language when left out.')));
const Slug = z.object({ slug: z.string().check(z.maxLength(200)) });
const SliderParams = z.object({ sliderId: z.string() });

/** Every delivery call reads, with the website's key. */
const read = { method: 'GET', policy: 'apiKey' } as const;

export const publicPages = defineAction({
  ...read,
  name: 'publicPages',
  path: '/api/public/pages',
  summary: 'Lists the published pages, in their order.',
  query: z.object({ language: Language, ...Paging }),
  answer: z.array(PageSummary),
});
export const publicPage = defineAction({
  ...read,
  name: 'publicPage',
  path: '/api/public/pages/:slug',
  summary: 'A published page by its slug, with its content; with an X-Preview-Token header, also the draft the token names.',
  params: Slug,
  query: z.object({ language: optionalQuery(z.string().check(z.maxLength(20), z.describe('Needed when the slug is used in several languages; else the oldest page of that slug.'))) }),
  answer: Page,
});
export const publicMenus = defineAction({
  ...read,
  name: 'publicMenus',
  path: '/api/public/menus',
  summary: 'Lists the menus, each with its items as a tree.',
  query: z.object({ location: optionalQuery(z.string().check(z.maxLength(60))) }),
  answer: z.array(Menu),
});
export const publicMenu = defineAction({
  ...read,
  name: 'publicMenu',
  path: '/api/public/menus/:menuId',
  summary: 'A menu by its id, with its items as a tree.',
  params: z.object({ menuId: z.string() }),
  answer: Menu,
});
export const publicPostCategories = defineAction({ ...read, name: 'publicPostCategories', path: '/api/public/post-categories', summary: 'Lists the post categories.', answer: z.array(Category) });
export const publicPosts = defineAction({
  ...read,
  name: 'publicPosts',
  path: '/api/public/posts',
  summary: 'Lists the published posts, newest first.',
  query: z.object({ category: optionalQuery(z.string().check(z.maxLength(120), z.describe('A category’s slug or id.'))), ...Paging }),
  answer: z.array(PostSummary),
});
export const publicPost = defineAction({
  ...read,
  name: 'publicPost',
  path: '/api/public/posts/:slug',
  summary: 'A published post by its slug, with its content; with an X-Preview-Token header, also the draft the token names.',
  params: Slug,
  answer: Post,
});
export const publicHeroSliders = defineAction({
  ...read,
  name: 'publicHeroSliders',
  path: '/api/public/hero-sliders',
  summary: 'Lists the active hero sliders, each with its slides.',
  answer: z.array(HeroSlider),
});
export const publicHeroSlider = defineAction({
  ...read,
  name: 'publicHeroSlider',
  path: '/api/public/hero-sliders/:sliderId',
  summary: 'An active hero slider by its id, with its slides.',
  params: SliderParams,
  answer: HeroSlider,
});
export const publicGallerySliders = defineAction({
  ...read,
  name: 'publicGallerySliders',
  path: '/api/public/gallery-sliders',
  summary: 'Lists the active gallery sliders, each with its pictures.',
  answer: z.array(GallerySlider),
});
export const publicGallerySlider = defineAction({
  ...read,
  name: 'publicGallerySlider',
  path: '/api/public/gallery-sliders/:sliderId',
  summary: 'An active gallery slider by its id, with its pictures.',
  params: SliderParams,
  answer: GallerySlider,
});
export const publicMedia = defineAction({
  ...read,
  name: 'publicMedia',
  path: '/api/public/media/:mediaId',
  summary: 'A file of the media library by its id.',
  params: z.object({ mediaId: z.string() }),
  answer: MediaFile,
});
export const publicGastroMenus = defineAction({
  ...read,
  name: 'publicGastroMenus',
  path: '/api/public/gastro-menus',
  summary: 'Lists the published food menus, each whole.',
  query: z.object({ language: Language }),
  answer: z.array(GastroMenu),
});
export const publicGastroMenu = defineAction({
  ...read,
  name: 'publicGastroMenu',
  path: '/api/public/gastro-menus/:menuId',
  summary: 'A published food menu by its id, whole; with an X-Preview-Token header, also the draft the token names.',
  params: z.object({ menuId: z.string() }),
  query: z.object({ language: optionalQuery(z.string().check(z.maxLength(20), z.describe('The language of the allergens’ names; the menu’s own when left out.'))) }),
  answer: GastroMenu,
});
/** A website without SEO settings, or with them switched off, hears null: nothing to put in its <head>. */
export const publicSeo = defineAction({
  ...read,
  name: 'publicSeo',
  path: '/api/public/seo',
  summary: 'The website’s search-engine settings; null when it has none, or they are switched off.',
  answer: z.nullable(Seo),
});
