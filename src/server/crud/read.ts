import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { messages } from '../../contract/messages';
import { RECENT_DAYS } from '../../contract/resource';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { ok } from '../http/reply';
import { prepared } from '../store/prepared';
import { rowCounts } from '../store/schema';
import { sortKey } from '../store/schema/collation';
import { tag, toEntity } from './answer';
import type { ResourceContext } from './context';
import { itemWhere, parentFound, visibleRows } from './rows';
import type { Row, Values } from './types';

type ListQuery = { page: number; limit: number; search?: string; sortBy?: string; sortOrder?: 'asc' | 'desc'; ids?: string[] } & Values;

/** `%` and `_` typed into the search box are text, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The row count a table's triggers keep (store/schema/counts.ts). */
const keptCount = prepared((db) =>
  db
    .select({ n: rowCounts.n })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, sql.placeholder('tableName')))
    .prepare('kept_row_count'),
);

/** How many rows `where` selects: for the whole table, the count its triggers keep, when it keeps one. */
async function countRows({ db, table, tableName, rows }: ResourceContext, where: SQL | undefined): Promise<number> {
  if (!where && !rows) {
    const [kept] = await keptCount(db).execute({ tableName });
    if (kept) return kept.n;
  }
  const [counted] = await db.select({ total: count() }).from(table).where(where);
  return counted?.total ?? 0;
}

/** A page of the visible rows (or, not `visible`, of all the entry's), searched, filtered and sorted as the query asks. */
export async function list(context: ResourceContext, request: FastifyRequest, narrower?: SQL, visible = true) {
  const { resource, db, table, rows, hooks, column } = context;
  await parentFound(context, request);
  const query = request.query as ListQuery;
  const search = query.search ? or(...resource.search.map((key) => ilike(column(key), likePattern(query.search!)))) : undefined;
  const filters = Object.keys(resource.filters)
    .filter((key) => query[key] !== undefined)
    .map((key) => eq(column(key), query[key]));
  const ids = query.ids ? inArray(column('id'), query.ids.filter((id) => isUuid(id))) : undefined;
  const where = and(visible ? visibleRows(context, request).where : rows, narrower, hooks.narrow?.(request), search, ids, ...filters);
  const order = (query.sortOrder ?? (query.sortBy === undefined ? resource.defaultOrder : undefined)) === 'desc' ? desc : asc;
  // Text sorts alphabetically for people, with the same expression its index is built on.
  const sorted = sortKey(column(query.sortBy ?? resource.sort[0]));
  // Two indexed queries side by side: the page stops after `limit` rows, the count reads an index
  // (or, for the whole table, the row count its triggers keep).
  const [totalItems, found] = await Promise.all([
    countRows(context, where),
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(order(sorted), order(column('id')))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  ]);
  return ok((found as Row[]).map((row) => toEntity(context, request, row)), {
    pagination: {
      currentPage: query.page,
      // An empty list still is one (empty) page.
      totalPages: Math.max(1, Math.ceil(totalItems / query.limit)),
      totalItems,
      itemsPerPage: query.limit,
    },
  });
}

export async function get(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  await parentFound(context, request);
  // An entry any of the website's people reach narrows each caller's rows in its hook: a record by its id too.
  const narrowed = 'members' in context.resource ? context.hooks.narrow?.(request) : undefined;
  const [row] = (await context.db.select().from(context.table).where(and(itemWhere(context, request), narrowed))) as Row[];
  if (!row) throw new HttpError(404, messages.notFound);
  tag(reply, row);
  return ok(toEntity(context, request, row));
}

/** A list's figures (spec §7 `/stats`): how many in all, how many are new, and per value of each enum filter. */
export async function stats(context: ResourceContext, request: FastifyRequest) {
  const { resource, db, table, clock, column } = context;
  const groupKeys = Object.entries(resource.filters)
    .filter(([, schema]) => (schema as z.core.$ZodType)._zod.def.type === 'enum')
    .map(([key]) => key);
  const where = visibleRows(context, request).where;
  const since = new Date(clock().getTime() - RECENT_DAYS * 86_400_000).toISOString();
  const [totals, ...groups] = await Promise.all([
    db
      .select({ total: count(), recent: sql<number>`count(*) filter (where ${column('createdAt')} >= ${since}::timestamptz)`.mapWith(Number) })
      .from(table)
      .where(where),
    ...groupKeys.map((key) => db.select({ value: column(key), n: count() }).from(table).where(where).groupBy(column(key))),
  ]);
  const by = Object.fromEntries(groupKeys.map((key, index) => [key, Object.fromEntries(groups[index]!.map((group) => [String(group.value), group.n]))]));
  return ok({ total: totals[0]?.total ?? 0, recent: totals[0]?.recent ?? 0, by });
}
