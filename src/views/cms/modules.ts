import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CmsModule } from '../../contract/permissions';

/** Each CMS module's words and its route under /cms/{id} (spec §2). */
export const CMS_MODULE_PAGES: Readonly<Record<CmsModule, { label: MessageDescriptor; path: string }>> = {
  pages: { label: msg`Pages`, path: 'pages' },
  menus: { label: msg`Menus`, path: 'menu' },
  posts: { label: msg`Posts`, path: 'posts' },
  heroSliders: { label: msg`Hero sliders`, path: 'hero-slider' },
  gallerySliders: { label: msg`Gallery sliders`, path: 'gallery-slider' },
  media: { label: msg`Media library`, path: 'media' },
  contactForms: { label: msg`Contact forms`, path: 'forms' },
  gastro: { label: msg`Gastronomy menus`, path: 'gastromenu' },
};
