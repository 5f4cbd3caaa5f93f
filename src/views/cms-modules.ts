import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import { MODULE } from '../contract/modules';
import type { CmsModule, Feature } from '../contract/permissions';
import type { Resource } from '../contract/resource';
import type { ResourceScreen } from './resource/screen';
import type { PageProps } from './page';

// Each part of a website's CMS as the app shows it: its routes under /cms/:websiteId (its screens,
// in a chunk of their own) and its dashboard card. The route table, the screens' own routes and
// the CMS dashboard are made from these; a CMS module's name and route base are its contract
// declaration's (contract/modules.ts). This file is in the first chunk: it names its screens and
// its card's entry by loaders only.

/** The names of a screens file's exports that are pages. */
type PageOf<Screens> = { [Export in keyof Screens]: Screens[Export] extends ComponentType<PageProps> ? Export : never }[keyof Screens];

interface RouteDeclaration<Page> {
  /** Below the section's base (`/edit/:postId`); parameters name what they hold. */
  path: string;
  /** Unset: the module's name (its list). */
  title?: MessageDescriptor;
  page: Page;
}

interface Declaration<Screens, Name extends string> {
  /** Its screens' file: one chunk per section. */
  screens: () => Promise<Screens>;
  /** Its routes, first match wins: fixed segments come before the `:param` beside them. */
  routes: Record<Name, RouteDeclaration<PageOf<Screens>>>;
  /**
   * Its card on the CMS dashboard: the entry it counts and lists, the route one of its records
   * opens at (unset: the list) and the one a new record is made at (unset: the list). A card shows
   * the entry's figures per value of its `status` filter.
   */
  card?: { resource: () => Promise<Resource>; open?: Name; create?: Name };
}

export interface SectionRoute {
  /** The whole pattern, `/cms/:websiteId/posts/edit/:postId`. */
  path: string;
  title: MessageDescriptor;
  load: () => Promise<ComponentType<PageProps>>;
}

export interface CmsSection<Name extends string = string> {
  /** What opens it to a team member: a CMS module's level, or a role flag. */
  access: { module: CmsModule } | { feature: Feature };
  routes: Readonly<Record<Name, SectionRoute>>;
  card?: { resource: () => Promise<Resource>; open?: Name; create?: Name };
}

function section<Screens, Name extends string>(
  access: CmsSection['access'],
  base: string,
  name: MessageDescriptor,
  { screens, routes, card }: Declaration<Screens, Name>,
): CmsSection<Name> {
  const entries = Object.entries<RouteDeclaration<PageOf<Screens>>>(routes).map(([key, route]) => [
    key,
    {
      path: `/cms/:websiteId/${base}${route.path}`,
      title: route.title ?? name,
      load: () => screens().then((loaded) => loaded[route.page] as ComponentType<PageProps>),
    },
  ]);
  return { access, routes: Object.fromEntries(entries) as Record<Name, SectionRoute>, card };
}

const cmsModule = <Screens, Name extends string>(key: CmsModule, declaration: Declaration<Screens, Name>) =>
  section({ module: key }, MODULE[key].path, MODULE[key].name, declaration);

const cms = () => import('../contract/resources/cms');

/**
 * The CMS modules and the team, in the order the route table and the dashboard list them. Typed
 * as sections of any route names: the screens name their routes from here (screenRoutes), so this
 * type must not depend on theirs.
 */
export const CMS: Readonly<Record<CmsModule | 'team', CmsSection>> = {
  pages: cmsModule('pages', {
    screens: () => import('./cms/pages'),
    routes: {
      list: { path: '', page: 'PagesPage' },
      new: { path: '/new', title: msg`New page`, page: 'PageNewPage' },
      edit: { path: '/edit/:moduleId', title: msg`Edit page`, page: 'PageEditPage' },
    },
    card: { resource: () => cms().then((m) => m.pages), open: 'edit', create: 'new' },
  }),
  menus: cmsModule('menus', {
    screens: () => import('./cms/menus'),
    routes: {
      list: { path: '', page: 'MenusPage' },
      new: { path: '/new', title: msg`New menu`, page: 'MenuNewPage' },
      edit: { path: '/edit/:menuId', title: msg`Edit menu`, page: 'MenuEditPage' },
    },
    card: { resource: () => cms().then((m) => m.menus), open: 'edit', create: 'new' },
  }),
  posts: cmsModule('posts', {
    screens: () => import('./cms/posts'),
    routes: {
      list: { path: '', page: 'PostsPage' },
      new: { path: '/new', title: msg`New post`, page: 'PostNewPage' },
      edit: { path: '/edit/:postId', title: msg`Edit post`, page: 'PostEditPage' },
      categories: { path: '/categories', title: msg`Post categories`, page: 'PostCategoriesPage' },
    },
    card: { resource: () => cms().then((m) => m.posts), open: 'edit', create: 'new' },
  }),
  heroSliders: cmsModule('heroSliders', {
    screens: () => import('./cms/sliders'),
    routes: {
      list: { path: '', page: 'HeroSlidersPage' },
      new: { path: '/new', title: msg`New hero slider`, page: 'HeroSliderNewPage' },
      edit: { path: '/edit/:sliderId', title: msg`Edit hero slider`, page: 'HeroSliderEditPage' },
    },
    card: { resource: () => cms().then((m) => m.heroSliders), open: 'edit', create: 'new' },
  }),
  gallerySliders: cmsModule('gallerySliders', {
    screens: () => import('./cms/sliders'),
    routes: {
      list: { path: '', page: 'GallerySlidersPage' },
      new: { path: '/new', title: msg`New gallery slider`, page: 'GallerySliderNewPage' },
      edit: { path: '/edit/:sliderId', title: msg`Edit gallery slider`, page: 'GallerySliderEditPage' },
    },
    card: { resource: () => cms().then((m) => m.gallerySliders), open: 'edit', create: 'new' },
  }),
  media: cmsModule('media', {
    screens: () => import('./cms/media'),
    routes: { list: { path: '', page: 'MediaPage' } },
    // Files are added and opened on the library's own page.
    card: { resource: () => cms().then((m) => m.media) },
  }),
  contactForms: cmsModule('contactForms', {
    screens: () => import('./cms/contact-forms'),
    routes: {
      list: { path: '', page: 'ContactFormsPage' },
      new: { path: '/new', title: msg`New contact form`, page: 'ContactFormNewPage' },
      edit: { path: '/edit/:formId', title: msg`Edit contact form`, page: 'ContactFormEditPage' },
      smtp: { path: '/smtp', title: msg`Outgoing mail`, page: 'SmtpPage' },
      template: { path: '/template', title: msg`Email template`, page: 'TemplatePage' },
    },
    card: { resource: () => import('../contract/resources/contact-forms').then((m) => m.contactForms), open: 'edit', create: 'new' },
  }),
  gastro: cmsModule('gastro', {
    screens: () => import('./cms/gastro'),
    routes: {
      list: { path: '', page: 'GastroMenusPage' },
      new: { path: '/new', title: msg`New gastronomy menu`, page: 'GastroMenuNewPage' },
      edit: { path: '/edit/:menuId', title: msg`Edit gastronomy menu`, page: 'GastroMenuEditPage' },
      categories: { path: '/categories', title: msg`Gastronomy categories`, page: 'GastroCategoriesPage' },
      allergens: { path: '/allergens', title: msg`Allergens`, page: 'GastroAllergensPage' },
      menu: { path: '/:menuId', title: msg`Gastronomy menu`, page: 'GastroMenuPage' },
      menuCategories: { path: '/:menuId/categories', title: msg`Menu categories`, page: 'GastroMenuCategoriesPage' },
      menuAllergens: { path: '/:menuId/allergens', title: msg`Menu allergens`, page: 'GastroAllergensPage' },
      newItem: { path: '/:menuId/items/new', title: msg`New dish`, page: 'GastroItemNewPage' },
      editItem: { path: '/:menuId/items/edit/:itemId', title: msg`Edit dish`, page: 'GastroItemEditPage' },
    },
    // A food menu opens as it is printed (its form is one tap from there).
    card: { resource: () => import('../contract/resources/gastro').then((m) => m.gastroMenus), open: 'menu', create: 'new' },
  }),
  team: section({ feature: 'team' }, 'team', msg`Team`, {
    screens: () => import('./cms/team'),
    routes: {
      list: { path: '', page: 'TeamPage' },
      add: { path: '/add', title: msg`Add team member`, page: 'TeamMemberNewPage' },
      edit: { path: '/edit/:memberId', title: msg`Edit team member`, page: 'TeamMemberEditPage' },
      roles: { path: '/roles', title: msg`Team roles`, page: 'TeamRolesPage' },
      addRole: { path: '/roles/add', title: msg`Add team role`, page: 'TeamRoleNewPage' },
      editRole: { path: '/roles/edit/:roleId', title: msg`Edit team role`, page: 'TeamRoleEditPage' },
    },
  }),
};

export const CMS_SECTIONS: readonly CmsSection[] = Object.values(CMS);

/** The last `:param` of a route pattern: the one a record's id fills. */
export const lastParam = (path: string) => /:(\w+)$/.exec(path)?.[1] ?? 'id';

/** A route pattern with its last parameter filled (`/cms/:websiteId/posts/edit/:postId` → `/cms/:websiteId/posts/edit/42`). */
export const withRecord = (path: string, id: string) => path.replace(/:\w+$/, () => id);

/**
 * A screen's own routes (ResourceScreen `routes`) by the names of its section's routes: its list,
 * new and edited records, and a record's own page; the edit route's last parameter holds the id.
 */
export function screenRoutes({ routes }: CmsSection, names: { list: string; create?: string; edit: string; view?: string }): NonNullable<ResourceScreen['routes']> {
  const path = (name: string) => {
    const route = routes[name];
    if (!route) throw new Error(`No CMS route is named ${name}`);
    return route.path;
  };
  const edit = path(names.edit);
  const view = names.view && path(names.view);
  return {
    list: path(names.list),
    create: names.create && path(names.create),
    edit: (id: string) => withRecord(edit, id),
    view: view ? (id: string) => withRecord(view, id) : undefined,
    idParam: lastParam(edit),
  };
}
