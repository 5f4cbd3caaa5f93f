import { and, asc, count, desc, eq, getTableColumns, getTableName, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '../contract/envelope';
import { messages } from '../contract/messages';
import { isAdmin } from '../contract/permissions';
import { resourceMessages, type Resource } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import type { ServerContext } from './context';
import { fieldError, HttpError } from './http/errors';
import { isUuid } from './http/ids';
import { ok } from './http/reply';
import { caller, principal } from './policy';
import { prepared } from './store/prepared';
import { rowCounts } from './store/schema';
import { alphabetical } from './store/schema/collation';
import { PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION, PG_UNIQUE_VIOLATION, pgError } from './store/pg-errors';

type Row = Record<string, unknown> & { id: string; version: number; createdAt: Date; updatedAt: Date };
type Params = Record<string, string>;
type ListQuery = { page: number; limit: number; search?: string; sortBy?: string; sortOrder?: 'asc' | 'desc' } & Record<string, unknown>;

/** The columns a scope filters on; a resource of that scope must have them. */
const SCOPE_COLUMNS = { global: [], website: ['websiteId'], owner: ['ownerId', 'partnerId'] } as const;

/** `%` and `_` typed into the search box are text, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The version an update or delete was made from: `If-Match: "3"` (quotes optional) → 3; none → 428. */
function expectedVersion(request: FastifyRequest): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(request.headers['if-match'] ?? '');
  if (!match) throw new HttpError(428, messages.versionRequired);
  return Number(match[1]);
}

// The version as an entity tag, so a plain HTTP client can echo it in If-Match.
const tag = (reply: FastifyReply, row: { version: number }) => reply.header('etag', `"${row.version}"`);

const paramsSchema = (path: string) => {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  // Strings, not UUIDs: a malformed id is answered like an unknown one (404), not as bad input.
  return names.length > 0 ? { params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) } : {};
};

/** The row count a table's triggers keep (store/schema/counts.ts). */
const keptCount = prepared((db) =>
  db
    .select({ n: rowCounts.n })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, sql.placeholder('tableName')))
    .prepare('kept_row_count'),
);

/**
 * The CRUD routes of one registry entry over its table (docs/design.md §3-5): list with search,
 * filters, sort and pagination; get; create (with an optional client-chosen `_id`); update and
 * delete guarded by `If-Match`. A resource with nothing special needs nothing more than this call.
 * Call it before `app.ready()`, on an app whose policies are registered (buildApp does both).
 */
export function registerResource(app: FastifyInstance, { store, clock }: Pick<ServerContext, 'store' | 'clock'>, resource: Resource, table: PgTable): void {
  const db = store.db;
  const tableName = getTableName(table);
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const fieldKeys = Object.keys(resource.fields);
  const needed = ['id', 'version', 'createdAt', 'updatedAt', ...fieldKeys, ...Object.keys(resource.filters), ...resource.sort, ...SCOPE_COLUMNS[resource.scope]];
  const missing = needed.filter((key) => !columns[key]);
  if (missing.length > 0) throw new Error(`Resource ${resource.name}: table ${tableName} has no column for ${missing.join(', ')}`);
  const column = (key: string) => columns[key]!;
  // Text sorts alphabetically for people, with the same expression its index is built on.
  const sortKey = (key: string) => (column(key).dataType === 'string' ? alphabetical(column(key)) : column(key));
  const route = app.withTypeProvider<ZodTypeProvider>();
  const read = { policy: resource.access.read };
  const write = { policy: resource.access.write };
  const entityResponse = successSchema(resource.entity);
  const listParams = paramsSchema(resource.paths.list);
  const itemParams = paramsSchema(resource.paths.item);

  /** What the wire shows of a row: the entry's fields and the entity base, nothing else. */
  const toEntity = (row: Row) => ({
    _id: row.id,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...Object.fromEntries(fieldKeys.map((key) => [key, row[key]])),
  });
  const say = (request: FastifyRequest, which: 'created' | 'updated' | 'deleted') => {
    const [descriptor, values] = resourceMessages(resource, request.t)[which];
    return request.t(descriptor, values);
  };

  /**
   * The rows this caller may touch, and what a create stamps on its row: one branch per scope.
   * Website routes passed their policy for the path's website, so the path names it.
   */
  function scope(request: FastifyRequest): { where?: SQL; values: Record<string, unknown> } {
    switch (resource.scope) {
      case 'global':
        return { values: {} };
      case 'website': {
        const websiteId = (request.params as Params).websiteId!;
        return { where: eq(column('websiteId'), websiteId), values: { websiteId } };
      }
      case 'owner': {
        const auth = caller(request);
        if (isAdmin(principal(auth))) return { values: {} };
        const mine = or(eq(column('ownerId'), auth.user.id), eq(column('partnerId'), auth.user.id));
        return { where: mine, values: { ownerId: auth.user.id } };
      }
    }
  }

  /** How many rows `where` selects: for the whole table, the count its triggers keep, when it keeps one. */
  async function countRows(where: SQL | undefined): Promise<number> {
    if (!where) {
      const [kept] = await keptCount(db).execute({ tableName });
      if (kept) return kept.n;
    }
    const [counted] = await db.select({ total: count() }).from(table).where(where);
    return counted?.total ?? 0;
  }

  /** The item the path names, within the caller's scope. */
  function itemWhere(request: FastifyRequest): SQL {
    const { id } = request.params as Params;
    if (!isUuid(id)) throw new HttpError(404, messages.notFound);
    return and(eq(column('id'), id), scope(request).where)!;
  }

  /** An update or delete that matched nothing: the item is gone (404) or was changed meanwhile (409 with it). */
  async function missOrConflict(request: FastifyRequest, where: SQL): Promise<HttpError> {
    const [current] = (await db.select().from(table).where(where)) as Row[];
    if (!current) return new HttpError(404, messages.notFound);
    const [descriptor, values] = resourceMessages(resource, request.t).conflict;
    return new HttpError(409, { ...descriptor, values }, toEntity(current));
  }

  /** The entry field whose column a constraint is named after (`subcategories_category_id_…_fk` → categoryId). */
  function fieldOf(constraint: string | undefined, fallback: string): string {
    if (constraint === `${tableName}_pkey`) return '_id';
    const rest = constraint?.startsWith(`${tableName}_`) ? constraint.slice(tableName.length + 1) : (constraint ?? '');
    const named = fieldKeys.filter((key) => rest.includes(column(key).name)).toSorted((a, b) => column(b).name.length - column(a).name.length);
    return named[0] ?? fallback;
  }

  /** Constraint violations are the caller's input, answered as field errors: never a 500 for bad input. */
  async function guarded<T>(request: FastifyRequest, action: 'write' | 'delete', run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const pg = pgError(err);
      const field = (fallback: string) => `body.${fieldOf(pg?.constraint, fallback)}`;
      if (pg?.code === PG_UNIQUE_VIOLATION) throw fieldError(field(resource.unique?.[0] ?? '_id'), messages.valueTaken);
      if ((pg?.code === PG_FOREIGN_KEY_VIOLATION || pg?.code === PG_RESTRICT_VIOLATION) && action === 'delete') {
        throw new HttpError(400, { ...messages.stillInUse, values: { item: request.t(resource.label.one) } });
      }
      if (pg?.code === PG_FOREIGN_KEY_VIOLATION) throw fieldError(field(fieldKeys[0]!), messages.unknownReference);
      throw err;
    }
  }

  route.get(
    resource.paths.list,
    { config: read, schema: { ...listParams, querystring: resource.query, response: { 200: successSchema(z.array(resource.entity)) } } },
    async (request) => {
      const query = request.query as ListQuery;
      const search = query.search ? or(...resource.search.map((key) => ilike(column(key), likePattern(query.search!)))) : undefined;
      const filters = Object.keys(resource.filters)
        .filter((key) => query[key] !== undefined)
        .map((key) => eq(column(key), query[key]));
      const where = and(scope(request).where, search, ...filters);
      const order = query.sortOrder === 'desc' ? desc : asc;
      // Two indexed queries side by side: the page stops after `limit` rows, the count reads an index
      // (or, for the whole table, the row count its triggers keep).
      const [totalItems, rows] = await Promise.all([
        countRows(where),
        db
          .select()
          .from(table)
          .where(where)
          .orderBy(order(sortKey(query.sortBy ?? resource.sort[0])), order(column('id')))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
      ]);
      return ok((rows as Row[]).map(toEntity), {
        pagination: {
          currentPage: query.page,
          // An empty list still is one (empty) page.
          totalPages: Math.max(1, Math.ceil(totalItems / query.limit)),
          totalItems,
          itemsPerPage: query.limit,
        },
      });
    },
  );

  route.get(resource.paths.item, { config: read, schema: { ...itemParams, response: { 200: entityResponse } } }, async (request, reply) => {
    const [row] = (await db.select().from(table).where(itemWhere(request))) as Row[];
    if (!row) throw new HttpError(404, messages.notFound);
    tag(reply, row);
    return ok(toEntity(row));
  });

  route.post(
    resource.paths.list,
    { config: write, schema: { ...listParams, body: resource.create, response: { 201: entityResponse } } },
    async (request, reply) => {
      const { _id, ...values } = request.body as { _id?: string } & Record<string, unknown>;
      const now = clock();
      const insert = { ...values, ...scope(request).values, id: _id ?? uuidv7(now.getTime()), version: 1, createdAt: now, updatedAt: now };
      const [row] = (await guarded(request, 'write', () => db.insert(table).values(insert).returning())) as Row[];
      tag(reply.status(201), row!);
      return ok(toEntity(row!), { message: say(request, 'created') });
    },
  );

  route.put(
    resource.paths.item,
    { config: write, schema: { ...itemParams, body: resource.update, response: { 200: entityResponse } } },
    async (request, reply) => {
      const where = itemWhere(request);
      const version = expectedVersion(request);
      const changes = { ...(request.body as Record<string, unknown>), version: version + 1, updatedAt: clock() };
      // One statement: the version check and the change cannot be split by another writer.
      const [row] = (await guarded(request, 'write', () =>
        db
          .update(table)
          .set(changes)
          .where(and(where, eq(column('version'), version)))
          .returning(),
      )) as Row[];
      if (!row) throw await missOrConflict(request, where);
      tag(reply, row);
      return ok(toEntity(row), { message: say(request, 'updated') });
    },
  );

  route.delete(
    resource.paths.item,
    { config: write, schema: { ...itemParams, response: { 200: successSchema(z.object({ _id: z.string() })) } } },
    async (request) => {
      const where = itemWhere(request);
      const version = expectedVersion(request);
      const [row] = await guarded(request, 'delete', () =>
        db
          .delete(table)
          .where(and(where, eq(column('version'), version)))
          .returning({ id: column('id') }),
      );
      if (!row) throw await missOrConflict(request, where);
      return ok({ _id: row.id as string }, { message: say(request, 'deleted') });
    },
  );
}
