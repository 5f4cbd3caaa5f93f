import type { MessageDescriptor } from '@lingui/core';
import type { CmsModule } from './permissions';

/**
 * What a person calls each CMS module (a service's modules, the website form). Descriptors with
 * explicit ids, not macros: the server names modules too (`/api/services/flattened/modules`), in
 * the language a query asks for.
 */
export const CMS_MODULE_NAMES = {
  pages: /*i18n*/ { id: 'cmsModule.pages', message: 'Pages' },
  menus: /*i18n*/ { id: 'cmsModule.menus', message: 'Menus' },
  posts: /*i18n*/ { id: 'cmsModule.posts', message: 'Blog posts' },
  heroSliders: /*i18n*/ { id: 'cmsModule.heroSliders', message: 'Hero sliders' },
  gallerySliders: /*i18n*/ { id: 'cmsModule.gallerySliders', message: 'Gallery sliders' },
  media: /*i18n*/ { id: 'cmsModule.media', message: 'Media library' },
  contactForms: /*i18n*/ { id: 'cmsModule.contactForms', message: 'Contact forms' },
  gastro: /*i18n*/ { id: 'cmsModule.gastro', message: 'Restaurant menus' },
} as const satisfies Record<CmsModule, MessageDescriptor>;
