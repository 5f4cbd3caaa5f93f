import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ActionAnswer } from '../../contract/action';
import type { Success } from '../../contract/envelope';
import { hasFeature } from '../../contract/permissions';
import * as cms from '../../contract/resources/cms';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { menuItemHooks } from '../content/menus';
import { mediaLink } from '../content/media-links';
import { mediaRoutes } from '../content/media';
import { pageHooks } from '../content/pages';
import { postCategoryHooks, postHooks } from '../content/posts';
import { registerResource } from '../crud';
import { gastroRoutes } from './gastro';
import { caller, principal, reachable } from '../policy';
import * as tables from '../store/schema';

/** The CRUD's list of the settings, as the action declares it. */
type Listed = Promise<Success<ActionAnswer<typeof cms.reachableSeo>>>;

/**
 * A website's CMS (spec §7): every entry on the generic CRUD, each with its module's levels
 * (contract/resource.ts accessOf). What an entry does beyond storing its fields lives in its
 * hooks, one file per module under server/content.
 */
export async function cmsRoutes(app: FastifyInstance, ctx: ServerContext) {
  registerResource(app, ctx, cms.pages, tables.cmsPages, pageHooks);
  registerResource(app, ctx, cms.postCategories, tables.postCategories, postCategoryHooks);
  registerResource(app, ctx, cms.posts, tables.posts, postHooks(ctx.clock));
  registerResource(app, ctx, cms.menus, tables.menus);
  registerResource(app, ctx, cms.menuItems, tables.menuItems, menuItemHooks, { parentTable: tables.menus });
  registerResource(app, ctx, cms.heroSliders, tables.heroSliders);
  registerResource(app, ctx, cms.heroSlides, tables.heroSlides, mediaLink({ idField: 'mediaId', keyColumn: 'imageKey', urlField: 'imageUrl' }), { parentTable: tables.heroSliders });
  registerResource(app, ctx, cms.gallerySliders, tables.gallerySliders);
  registerResource(app, ctx, cms.gallerySlides, tables.gallerySlides, mediaLink({ idField: 'mediaId', keyColumn: 'imageKey', urlField: 'imageUrl' }), { parentTable: tables.gallerySliders });
  mediaRoutes(app, ctx);
  gastroRoutes(app, ctx);
  const seo = registerResource(app, ctx, cms.seo, tables.seo, mediaLink({ idField: 'ogImageMediaId', keyColumn: 'ogImageKey', urlField: 'ogImageUrl' }));
  registerAction(app, cms.reachableSeo, (_input, request) => {
    const auth = caller(request);
    if (!hasFeature(principal(auth), 'seo')) return seo.list(request, sql`false`, false) as Listed;
    const websites = reachable(ctx.store.db, auth);
    return seo.list(request, websites && inArray(tables.seo.websiteId, ctx.store.db.select({ id: tables.websites.id }).from(tables.websites).where(websites)), false) as Listed;
  });
}
