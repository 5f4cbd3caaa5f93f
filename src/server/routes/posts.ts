import type { FastifyInstance } from 'fastify';
import * as cms from '../../contract/resources/cms';
import type { ServerContext } from '../context';
import { postCategoryHooks, postHooks } from '../content/posts';
import { registerResource } from '../crud';
import * as tables from '../store/schema';

/** A website's posts and their categories (spec §7 Posts) on the generic CRUD. */
export async function postRoutes(app: FastifyInstance, ctx: ServerContext) {
  registerResource(app, ctx, cms.postCategories, tables.postCategories, postCategoryHooks);
  registerResource(app, ctx, cms.posts, tables.posts, postHooks(ctx.clock));
}
