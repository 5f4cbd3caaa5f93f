import type { FastifyInstance } from 'fastify';
import type { CmsModule } from '../contract/permissions';
import { mediaRoutes } from './content/media';
import type { ServerContext } from './context';
import { contactFormRoutes } from './routes/contact-forms';
import { gastroRoutes } from './routes/gastro';
import { menuRoutes } from './routes/menus';
import { pageRoutes } from './routes/pages';
import { postRoutes } from './routes/posts';
import { gallerySliderRoutes, heroSliderRoutes } from './routes/sliders';

/** What registers one module's server side: its entries (`registerResource`) and its actions (`registerAction`). */
type ModuleRoutes = (app: FastifyInstance, ctx: ServerContext) => Promise<void>;

/**
 * Each CMS module's routes (contract/modules.ts), by its key: a module declared without them does
 * not compile. Its entries take their levels from the module (contract/resource.ts accessOf); what
 * an entry does beyond storing its fields lives in its hooks, one file per module under server/content.
 */
export const MODULE_ROUTES: { readonly [M in CmsModule]: ModuleRoutes } = {
  pages: pageRoutes,
  menus: menuRoutes,
  posts: postRoutes,
  heroSliders: heroSliderRoutes,
  gallerySliders: gallerySliderRoutes,
  media: mediaRoutes,
  contactForms: contactFormRoutes,
  gastro: gastroRoutes,
};
