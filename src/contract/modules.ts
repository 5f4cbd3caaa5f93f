import type { MessageDescriptor } from '@lingui/core';
import type { Level } from './permissions';

/**
 * A route of a module's screens, below its route base. The app's route table, the screens' own
 * routes and the dashboard's links are made from these.
 */
export interface ModuleRoute {
  /** Below the module's base (`/edit/:postId`); parameters name what they hold. */
  path: string;
  /** The page's title; unset: the module's name (its list). */
  title?: MessageDescriptor;
  /** The export of the module's screens file that is this page (a test loads each). */
  page: string;
}

/** A CMS module of a website: one declaration, from which every list of modules is made. */
export interface ModuleDeclaration<Key extends string = string, Entry extends string = string, Route extends string = string> {
  /** The key its permission level is kept under in a role (`cmsPermissions`), and its entries' `module`. */
  key: Key;
  /**
   * What a person calls it, everywhere: the CMS, its dashboard, the role form, a service's modules.
   * Descriptors here carry explicit ids, not macros: the server names modules too
   * (`/api/services/flattened/modules`), in the language a query asks for.
   */
  name: MessageDescriptor;
  /** Its route base: the path segment under /cms/{id} (spec §2). */
  path: string;
  /** The names of its registry entries (each says `module: key`; a test holds the two together). */
  entries: readonly Entry[];
  /** Its entries' file under src/contract/resources (`gastro`: gastro.ts), loaded when they are needed (the dashboard's card). */
  contract: string;
  /** Its screens' file under src/views/cms (`gastro`: gastro.tsx), a chunk its routes load. */
  screens: string;
  /** Its routes, first match wins: fixed segments come before the `:param` beside them. `list` is its home. */
  routes: Readonly<Record<Route | 'list', ModuleRoute>>;
  /**
   * Its card on the CMS dashboard: the entry it counts and lists (and its figures per value of its
   * `status` filter), the route a record opens at and the one a new record is made at (unset: the list).
   */
  card?: { entry: NoInfer<Entry>; open?: NoInfer<Route>; create?: NoInfer<Route> };
  /** The first path segments under /api/public its delivery routes answer at (none: not delivered). */
  delivery: readonly string[];
  /** The level the demo website's view-only team member has in it. */
  demo: Level;
}

const defineModule = <const Key extends string, const Entry extends string, const Route extends string>(module: ModuleDeclaration<Key, Entry, Route>) => module;

/** Every CMS module, in the order they are listed wherever they are listed. */
export const MODULES = [
  defineModule({
    key: 'pages',
    name: /*i18n*/ { id: 'cmsModule.pages', message: 'Pages' },
    path: 'pages',
    entries: ['pages'],
    contract: 'cms',
    screens: 'pages',
    routes: {
      list: { path: '', page: 'PagesPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.pages.new', message: 'New page' }, page: 'PageNewPage' },
      edit: { path: '/edit/:moduleId', title: /*i18n*/ { id: 'cmsRoute.pages.edit', message: 'Edit page' }, page: 'PageEditPage' },
    },
    card: { entry: 'pages', open: 'edit', create: 'new' },
    delivery: ['pages'],
    demo: 'view',
  }),
  defineModule({
    key: 'menus',
    name: /*i18n*/ { id: 'cmsModule.menus', message: 'Menus' },
    path: 'menu',
    entries: ['menus', 'menuItems'],
    contract: 'cms',
    screens: 'menus',
    routes: {
      list: { path: '', page: 'MenusPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.menus.new', message: 'New menu' }, page: 'MenuNewPage' },
      edit: { path: '/edit/:menuId', title: /*i18n*/ { id: 'cmsRoute.menus.edit', message: 'Edit menu' }, page: 'MenuEditPage' },
    },
    card: { entry: 'menus', open: 'edit', create: 'new' },
    delivery: ['menus'],
    demo: 'view',
  }),
  defineModule({
    key: 'posts',
    name: /*i18n*/ { id: 'cmsModule.posts', message: 'Posts' },
    path: 'posts',
    entries: ['posts', 'postCategories'],
    contract: 'cms',
    screens: 'posts',
    routes: {
      list: { path: '', page: 'PostsPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.posts.new', message: 'New post' }, page: 'PostNewPage' },
      edit: { path: '/edit/:postId', title: /*i18n*/ { id: 'cmsRoute.posts.edit', message: 'Edit post' }, page: 'PostEditPage' },
      categories: { path: '/categories', title: /*i18n*/ { id: 'cmsRoute.posts.categories', message: 'Post categories' }, page: 'PostCategoriesPage' },
    },
    card: { entry: 'posts', open: 'edit', create: 'new' },
    delivery: ['posts', 'post-categories'],
    demo: 'view',
  }),
  defineModule({
    key: 'heroSliders',
    name: /*i18n*/ { id: 'cmsModule.heroSliders', message: 'Hero sliders' },
    path: 'hero-slider',
    entries: ['heroSliders', 'heroSlides'],
    contract: 'cms',
    screens: 'sliders',
    routes: {
      list: { path: '', page: 'HeroSlidersPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.heroSliders.new', message: 'New hero slider' }, page: 'HeroSliderNewPage' },
      edit: { path: '/edit/:sliderId', title: /*i18n*/ { id: 'cmsRoute.heroSliders.edit', message: 'Edit hero slider' }, page: 'HeroSliderEditPage' },
    },
    card: { entry: 'heroSliders', open: 'edit', create: 'new' },
    delivery: ['hero-sliders'],
    demo: 'view',
  }),
  defineModule({
    key: 'gallerySliders',
    name: /*i18n*/ { id: 'cmsModule.gallerySliders', message: 'Gallery sliders' },
    path: 'gallery-slider',
    entries: ['gallerySliders', 'gallerySlides'],
    contract: 'cms',
    screens: 'sliders',
    routes: {
      list: { path: '', page: 'GallerySlidersPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.gallerySliders.new', message: 'New gallery slider' }, page: 'GallerySliderNewPage' },
      edit: { path: '/edit/:sliderId', title: /*i18n*/ { id: 'cmsRoute.gallerySliders.edit', message: 'Edit gallery slider' }, page: 'GallerySliderEditPage' },
    },
    card: { entry: 'gallerySliders', open: 'edit', create: 'new' },
    delivery: ['gallery-sliders'],
    demo: 'view',
  }),
  defineModule({
    key: 'media',
    name: /*i18n*/ { id: 'cmsModule.media', message: 'Media library' },
    path: 'media',
    entries: ['media'],
    contract: 'cms',
    screens: 'media',
    routes: { list: { path: '', page: 'MediaPage' } },
    // Files are added and opened on the library's own page.
    card: { entry: 'media' },
    delivery: ['media'],
    demo: 'view',
  }),
  defineModule({
    key: 'contactForms',
    name: /*i18n*/ { id: 'cmsModule.contactForms', message: 'Contact forms' },
    path: 'forms',
    entries: ['contactForms', 'contactSubmissions', 'smtpSettings', 'mailTemplates'],
    contract: 'contact-forms',
    screens: 'contact-forms',
    routes: {
      list: { path: '', page: 'ContactFormsPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.contactForms.new', message: 'New contact form' }, page: 'ContactFormNewPage' },
      edit: { path: '/edit/:formId', title: /*i18n*/ { id: 'cmsRoute.contactForms.edit', message: 'Edit contact form' }, page: 'ContactFormEditPage' },
      smtp: { path: '/smtp', title: /*i18n*/ { id: 'cmsRoute.contactForms.smtp', message: 'Outgoing mail' }, page: 'SmtpPage' },
      template: { path: '/template', title: /*i18n*/ { id: 'cmsRoute.contactForms.template', message: 'Email template' }, page: 'TemplatePage' },
    },
    card: { entry: 'contactForms', open: 'edit', create: 'new' },
    delivery: ['forms'],
    demo: 'view',
  }),
  defineModule({
    key: 'gastro',
    name: /*i18n*/ { id: 'cmsModule.gastro', message: 'Gastronomy menus' },
    path: 'gastromenu',
    entries: ['gastroMenus', 'gastroCategories', 'gastroAllergens', 'gastroItems'],
    contract: 'gastro',
    screens: 'gastro',
    routes: {
      list: { path: '', page: 'GastroMenusPage' },
      new: { path: '/new', title: /*i18n*/ { id: 'cmsRoute.gastro.new', message: 'New gastronomy menu' }, page: 'GastroMenuNewPage' },
      edit: { path: '/edit/:menuId', title: /*i18n*/ { id: 'cmsRoute.gastro.edit', message: 'Edit gastronomy menu' }, page: 'GastroMenuEditPage' },
      categories: { path: '/categories', title: /*i18n*/ { id: 'cmsRoute.gastro.categories', message: 'Gastronomy categories' }, page: 'GastroCategoriesPage' },
      allergens: { path: '/allergens', title: /*i18n*/ { id: 'cmsRoute.gastro.allergens', message: 'Allergens' }, page: 'GastroAllergensPage' },
      menu: { path: '/:menuId', title: /*i18n*/ { id: 'cmsRoute.gastro.menu', message: 'Gastronomy menu' }, page: 'GastroMenuPage' },
      menuCategories: { path: '/:menuId/categories', title: /*i18n*/ { id: 'cmsRoute.gastro.menuCategories', message: 'Menu categories' }, page: 'GastroMenuCategoriesPage' },
      menuAllergens: { path: '/:menuId/allergens', title: /*i18n*/ { id: 'cmsRoute.gastro.menuAllergens', message: 'Menu allergens' }, page: 'GastroAllergensPage' },
      newItem: { path: '/:menuId/items/new', title: /*i18n*/ { id: 'cmsRoute.gastro.newItem', message: 'New dish' }, page: 'GastroItemNewPage' },
      editItem: { path: '/:menuId/items/edit/:itemId', title: /*i18n*/ { id: 'cmsRoute.gastro.editItem', message: 'Edit dish' }, page: 'GastroItemEditPage' },
    },
    // A food menu opens as it is printed (its form is one tap from there).
    card: { entry: 'gastroMenus', open: 'menu', create: 'new' },
    delivery: ['gastro-menus'],
    demo: 'view',
  }),
] as const;

type Module = (typeof MODULES)[number];
type Keys<List extends readonly { key: string }[]> = { [Index in keyof List]: List[Index]['key'] };

/** The modules' keys as a tuple, for `z.enum`. */
export const MODULE_KEYS = MODULES.map((module) => module.key) as unknown as Keys<typeof MODULES>;

/** A module's declaration by its key. */
export const MODULE = Object.fromEntries(MODULES.map((module) => [module.key, module])) as { readonly [M in Module as M['key']]: M };
