import { and, eq, getTableColumns, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { isAdmin } from '../../contract/permissions';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { caller, principal } from '../policy';
import type { ResourceContext } from './context';
import type { Values } from './types';

type Params = Record<string, string>;
/** The rows a caller may see and touch, and what a create stamps on its row. */
export type VisibleRows = { where?: SQL; values: Values };

/**
 * The rows this caller may see and touch, and what a create stamps on its row: one branch per
 * scope. A website route's guard resolved its website; the raw parameter is never read here.
 */
export function visibleRows(context: ResourceContext, request: FastifyRequest): VisibleRows {
  const { resource, rows, parent, column } = context;
  switch (resource.scope) {
    case 'global':
      return { where: rows, values: {} };
    case 'website': {
      const website = request.website;
      if (!website) throw new Error(`Resource ${resource.name}: a website route ran without its website`);
      const parentId = parent && (request.params as Params)[parent.param];
      // An item path without the parent (`/gastro-menus/items/:itemId`) reaches the row by its website alone.
      if (!parent || parentId === undefined) return { where: and(eq(column('websiteId'), website.id), rows), values: { websiteId: website.id } };
      if (!isUuid(parentId)) throw new HttpError(404, messages.notFound);
      return { where: and(eq(column('websiteId'), website.id), eq(column(parent.param), parentId), rows), values: { websiteId: website.id, [parent.param]: parentId } };
    }
    case 'owner': {
      const auth = caller(request);
      const values = isAdmin(principal(auth)) ? {} : { [resource.owners[0]!]: auth.user.id };
      // The guard found the website this record is, and that the caller reaches it.
      if (request.website) return { where: and(eq(column('id'), request.website.id), rows), values };
      if (isAdmin(principal(auth))) return { where: rows, values };
      return { where: and(ownedBy(context, auth.user.id), rows), values };
    }
  }
}

/** The rows whose owner columns name the user, directly or through the row they point at. */
function ownedBy({ resource, ownedThrough, column, db }: ResourceContext, userId: string): SQL | undefined {
  return or(
    ...resource.owners.map((key) => {
      const link = ownedThrough[key];
      if (!link) return eq(column(key), userId);
      const linked = getTableColumns(link.table) as Record<string, PgColumn>;
      return inArray(column(key), db.select({ id: linked.id! }).from(link.table).where(eq(linked[link.owner]!, userId)));
    }),
  );
}

/** The item the path names, among the caller's visible rows; a singleton's is its website's one row. */
export function itemWhere(context: ResourceContext, request: FastifyRequest): SQL | undefined {
  const { where } = visibleRows(context, request);
  if (context.singleton) return where;
  const id = (request.params as Params)[context.resource.itemParam!];
  if (!isUuid(id)) throw new HttpError(404, messages.notFound);
  return and(eq(context.column('id'), id), where)!;
}

/** The parent the path names is a record of the route's website; else the whole path is unknown (404). */
export async function parentFound(context: ResourceContext, request: FastifyRequest): Promise<void> {
  const { resource, parent, db } = context;
  if (!parent) return;
  const { websiteId, [parent.param]: parentId } = visibleRows(context, request).values;
  // A path without its website had the guard find the website through this very parent (index.ts `routeConfig`): it exists, and is of it.
  if (parentId === undefined || (request.params as Params)[resource.websiteParam!] === undefined) return;
  const parentColumns = getTableColumns(parent.table) as Record<string, PgColumn>;
  const [found] = await db
    .select({ id: parentColumns.id! })
    .from(parent.table)
    .where(and(eq(parentColumns.id!, parentId as string), eq(parentColumns.websiteId!, websiteId as string)));
  if (!found) throw new HttpError(404, messages.notFound);
}
