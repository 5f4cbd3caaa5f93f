import type { MessageDescriptor } from '@lingui/core';
import type { Level } from './permissions';

/** A CMS module of a website: one declaration, from which every list of modules is made. */
export interface ModuleDeclaration<Key extends string = string> {
  /** The key its permission level is kept under in a role (`cmsPermissions`), and its entries' `module`. */
  key: Key;
  /**
   * What a person calls it, everywhere: the CMS, its dashboard, the role form, a service's modules.
   * A descriptor with an explicit id, not a macro: the server names modules too
   * (`/api/services/flattened/modules`), in the language a query asks for.
   */
  name: MessageDescriptor;
  /** Its route base: the path segment under /cms/{id} (spec §2). */
  path: string;
  /** The first path segments under /api/public its delivery routes answer at (none: not delivered). */
  delivery: readonly string[];
  /** The level the demo website's view-only team member has in it. */
  demo: Level;
}

const defineModule = <const Key extends string>(module: ModuleDeclaration<Key>) => module;

/** Every CMS module, in the order they are listed wherever they are listed. */
export const MODULES = [
  defineModule({ key: 'pages', name: /*i18n*/ { id: 'cmsModule.pages', message: 'Pages' }, path: 'pages', delivery: ['pages'], demo: 'view' }),
  defineModule({ key: 'menus', name: /*i18n*/ { id: 'cmsModule.menus', message: 'Menus' }, path: 'menu', delivery: ['menus'], demo: 'view' }),
  defineModule({ key: 'posts', name: /*i18n*/ { id: 'cmsModule.posts', message: 'Posts' }, path: 'posts', delivery: ['posts', 'post-categories'], demo: 'view' }),
  defineModule({ key: 'heroSliders', name: /*i18n*/ { id: 'cmsModule.heroSliders', message: 'Hero sliders' }, path: 'hero-slider', delivery: ['hero-sliders'], demo: 'view' }),
  defineModule({ key: 'gallerySliders', name: /*i18n*/ { id: 'cmsModule.gallerySliders', message: 'Gallery sliders' }, path: 'gallery-slider', delivery: ['gallery-sliders'], demo: 'view' }),
  defineModule({ key: 'media', name: /*i18n*/ { id: 'cmsModule.media', message: 'Media library' }, path: 'media', delivery: ['media'], demo: 'view' }),
  defineModule({ key: 'contactForms', name: /*i18n*/ { id: 'cmsModule.contactForms', message: 'Contact forms' }, path: 'forms', delivery: ['forms'], demo: 'view' }),
  defineModule({ key: 'gastro', name: /*i18n*/ { id: 'cmsModule.gastro', message: 'Gastronomy menus' }, path: 'gastromenu', delivery: ['gastro-menus'], demo: 'view' }),
] as const;

type Module = (typeof MODULES)[number];
type Keys<List extends readonly { key: string }[]> = { [Index in keyof List]: List[Index]['key'] };

/** The modules' keys as a tuple, for `z.enum`. */
export const MODULE_KEYS = MODULES.map((module) => module.key) as unknown as Keys<typeof MODULES>;

/** A module's declaration by its key. */
export const MODULE = Object.fromEntries(MODULES.map((module) => [module.key, module])) as { readonly [M in Module as M['key']]: M };
