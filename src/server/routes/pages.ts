import type { FastifyInstance } from 'fastify';
import * as cms from '../../contract/resources/cms';
import type { ServerContext } from '../context';
import { pageHooks } from '../content/pages';
import { registerResource } from '../crud';
import * as tables from '../store/schema';

/** A website's pages (spec §7 CMS pages) on the generic CRUD; slugs and sanitizing are their hooks'. */
export async function pageRoutes(app: FastifyInstance, ctx: ServerContext) {
  registerResource(app, ctx, cms.pages, tables.cmsPages, pageHooks);
}
