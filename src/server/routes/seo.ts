import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ActionAnswer } from '../../contract/action';
import type { Success } from '../../contract/envelope';
import { hasFeature } from '../../contract/permissions';
import * as cms from '../../contract/resources/cms';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { mediaLink } from '../content/media-links';
import { registerResource } from '../crud';
import { caller, principal, reachable } from '../policy';
import * as tables from '../store/schema';

/** The CRUD's list of the settings, as the action declares it. */
type Listed = Promise<Success<ActionAnswer<typeof cms.reachableSeo>>>;

/**
 * A website's search-engine settings (spec §7 SEO): a feature of the website, not a CMS module.
 * One record per website on the generic CRUD, and the list of every website's the caller reaches.
 */
export async function seoRoutes(app: FastifyInstance, ctx: ServerContext) {
  const seo = registerResource(app, ctx, cms.seo, tables.seo, mediaLink({ idField: 'ogImageMediaId', keyColumn: 'ogImageKey', urlField: 'ogImageThumbUrl' }));
  registerAction(app, cms.reachableSeo, (_input, request) => {
    const auth = caller(request);
    if (!hasFeature(principal(auth), 'seo')) return seo.list(request, sql`false`, false) as Listed;
    const websites = reachable(ctx.store.db, auth);
    return seo.list(request, websites && inArray(tables.seo.websiteId, ctx.store.db.select({ id: tables.websites.id }).from(tables.websites).where(websites)), false) as Listed;
  });
}
