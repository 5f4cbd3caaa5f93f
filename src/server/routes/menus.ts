import type { FastifyInstance } from 'fastify';
import * as cms from '../../contract/resources/cms';
import type { ServerContext } from '../context';
import { menuItemHooks } from '../content/menus';
import { registerResource } from '../crud';
import * as tables from '../store/schema';

/** A website's menus (spec §7 Menus) on the generic CRUD, their items under each. */
export async function menuRoutes(app: FastifyInstance, ctx: ServerContext) {
  registerResource(app, ctx, cms.menus, tables.menus);
  registerResource(app, ctx, cms.menuItems, tables.menuItems, menuItemHooks, { parentTable: tables.menus });
}
