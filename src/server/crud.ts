import { and, asc, count, desc, eq, getTableColumns, getTableName, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '../contract/envelope';
import { messages } from '../contract/messages';
import { isAdmin } from '../contract/permissions';
import { orderTag } from '../contract/order';
import { MAX_ORDERED_CHILDREN, pathParams, RECENT_DAYS, resourceMessages, StatsSchema, type Operation, type Resource } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import type { ServerContext } from './context';
import { readForm, toWebp } from './files/images';
import { fileUrl } from './files/storage';
import { fieldError, HttpError, issueMessage } from './http/errors';
import { revealOnce } from './http/idempotency';
import { isUuid } from './http/ids';
import { ok } from './http/reply';
import { caller, principal, type Policy, type WebsiteSource } from './policy';
import { prepared } from './store/prepared';
import { rowCounts } from './store/schema';
import { alphabetical } from './store/schema/collation';
import { PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION, PG_UNIQUE_VIOLATION, pgError } from './store/pg-errors';
import type { Db } from './store/store';

export type Row = Record<string, unknown> & { id: string; version: number; createdAt: Date; updatedAt: Date };
type Params = Record<string, string>;
type Values = Record<string, unknown>;
/** The rows a caller may touch, and what a create stamps on its row. */
type Scope = { where?: SQL; values: Values };
type ListQuery = { page: number; limit: number; search?: string; sortBy?: string; sortOrder?: 'asc' | 'desc'; ids?: string[] } & Values;
/** The request's transaction, for hooks that write beside the row. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What a hook knows besides the values: the transaction it runs in, and the request (its website: `request.website`). */
export interface HookContext {
  tx: Tx;
  request: FastifyRequest;
  /** Values this one answer shows and nothing stores as they are: a new API key, once. */
  reveal: Values;
}

/**
 * What an entry does beyond storing its fields (ADR 009): hash or encrypt a secret field, compute
 * a slug, check a rule across rows, mail an invitation, clean up files after a delete, mask what
 * a reader sees. Each runs inside the request's transaction, so a hook that throws leaves nothing
 * half-written: an `after…` hook refuses a change by throwing after seeing it.
 */
export interface ResourceHooks {
  beforeCreate?(values: Values, context: HookContext): Values | Promise<Values>;
  afterCreate?(row: Row, context: HookContext): void | Promise<void>;
  beforeUpdate?(changes: Values, context: HookContext): Values | Promise<Values>;
  afterUpdate?(row: Row, context: HookContext): void | Promise<void>;
  afterDelete?(row: Row, context: HookContext): void | Promise<void>;
  present?(entity: Values, row: Row, request: FastifyRequest): Values;
  /** Narrows a list by the entry's own query options (`?mimetype=image`, `?category=`): equality filters need no hook. */
  narrow?(request: FastifyRequest): SQL | undefined;
}

/** Several hooks of one entry as one (a slide's picture link and its own rules): each step runs in the order given. */
export function composeHooks(...all: ResourceHooks[]): ResourceHooks {
  const chain =
    (step: 'beforeCreate' | 'beforeUpdate') =>
    async (values: Values, context: HookContext): Promise<Values> => {
      let result = values;
      for (const hooks of all) result = (await hooks[step]?.(result, context)) ?? result;
      return result;
    };
  const each =
    (step: 'afterCreate' | 'afterUpdate' | 'afterDelete') =>
    async (row: Row, context: HookContext): Promise<void> => {
      for (const hooks of all) await hooks[step]?.(row, context);
    };
  const has = (step: keyof ResourceHooks) => all.some((hooks) => hooks[step]);
  return {
    ...(has('beforeCreate') && { beforeCreate: chain('beforeCreate') }),
    ...(has('beforeUpdate') && { beforeUpdate: chain('beforeUpdate') }),
    ...(has('afterCreate') && { afterCreate: each('afterCreate') }),
    ...(has('afterUpdate') && { afterUpdate: each('afterUpdate') }),
    ...(has('afterDelete') && { afterDelete: each('afterDelete') }),
    ...(has('present') && { present: (entity: Values, row: Row, request: FastifyRequest) => all.reduce((shown, hooks) => hooks.present?.(shown, row, request) ?? shown, entity) }),
    ...(has('narrow') && { narrow: (request: FastifyRequest) => and(...all.map((hooks) => hooks.narrow?.(request))) }),
  };
}

/**
 * How an entry's rows sit in its table (ADR 011), beyond its scope:
 * - `rows`: the part of the table that is this entry's (admins and owners share `users`);
 * - `ownedThrough`: an owner column that names a row of another table, whose own owner column
 *   makes its owner one of this row's (a website's partner record → the record's owner).
 */
export interface TableOptions {
  rows?: SQL;
  /** The column holding the storage key of the entry's `image`. */
  imageColumn?: string;
  ownedThrough?: Readonly<Record<string, { table: PgTable; owner: string }>>;
  /** The table of the entry's `parent` (a menu for its items): a parent outside the website answers 404. */
  parentTable?: PgTable;
}

/** What a hook is handed: the transaction and the request (`request.website`: the website its guard resolved). */
const hookContext = (request: FastifyRequest, tx: Tx): HookContext => ({ tx, request, reveal: {} });

/** `%` and `_` typed into the search box are text, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The version an update or delete was made from: `If-Match: "3"` (quotes optional) → 3; none → 428. */
export function expectedVersion(request: FastifyRequest): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(request.headers['if-match'] ?? '');
  if (!match) throw new HttpError(428, messages.versionRequired);
  return Number(match[1]);
}

// The version as an entity tag, so a plain HTTP client can echo it in If-Match.
const tag = (reply: FastifyReply, row: { version: number }) => reply.header('etag', `"${row.version}"`);

const paramsSchema = (path: string) => {
  const names = pathParams(path);
  // Strings, not UUIDs: a malformed id is answered like an unknown one (404), not as bad input.
  return names.length > 0 ? { params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) } : {};
};

/** Two paths Fastify cannot tell apart: the same segments, whatever their parameters are called. */
const sameShape = (a: string, b: string) => a.replace(/:\w+/g, ':') === b.replace(/:\w+/g, ':');

/** The row count a table's triggers keep (store/schema/counts.ts). */
const keptCount = prepared((db) =>
  db
    .select({ n: rowCounts.n })
    .from(rowCounts)
    .where(eq(rowCounts.tableName, sql.placeholder('tableName')))
    .prepare('kept_row_count'),
);

/**
 * The CRUD routes of one registry entry over its table (docs/design.md §3-5, ADR 009): list with
 * search, filters, sort and pagination; get; create (with an optional client-chosen `_id`); update
 * and delete guarded by `If-Match`; for a singleton, the one record of a website. Each route's
 * policy comes from the entry's access; a website-scoped route names where its website comes from
 * and the policy guard resolves it into `request.website`. Call it before `app.ready()`, on an app
 * whose policies are registered (buildApp does both).
 */
export function registerResource(
  app: FastifyInstance,
  { store, clock, files }: Pick<ServerContext, 'store' | 'clock'> & Partial<Pick<ServerContext, 'files'>>,
  resource: Resource,
  table: PgTable,
  hooks: ResourceHooks = {},
  { rows, ownedThrough = {}, imageColumn, parentTable }: TableOptions = {},
): ResourceRoutes {
  const db = store.db;
  const tableName = getTableName(table);
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const fieldKeys = Object.keys(resource.fields);
  const shownKeys = [...fieldKeys, ...Object.keys(resource.computed ?? {})];
  const scopeColumns = resource.scope === 'website' ? ['websiteId'] : resource.owners;
  // An optional computed field may live only in answers (a new key, revealed once by a hook).
  const image = resource.image;
  if (image && (!imageColumn || !files)) throw new Error(`Resource ${resource.name}: an image needs its column and the file storage`);
  const columnKeys = shownKeys.filter((key) => key !== image?.field && !(resource.computed?.[key] instanceof z.core.$ZodOptional));
  const needed = ['id', 'version', 'createdAt', 'updatedAt', ...columnKeys, ...Object.keys(resource.filters), ...resource.sort, ...scopeColumns];
  const missing = needed.filter((key) => !columns[key]);
  if (missing.length > 0) throw new Error(`Resource ${resource.name}: table ${tableName} has no column for ${missing.join(', ')}`);
  if (resource.scope === 'website' && 'websiteId' in resource.fields) throw new Error(`Resource ${resource.name}: websiteId is the server's, not a field`);
  const column = (key: string) => columns[key]!;
  const parent = resource.parent;
  if (parent && (!parentTable || !columns[parent.param] || resource.scope !== 'website')) throw new Error(`Resource ${resource.name}: a parent needs its table and column, in a website`);
  // Only an item path may leave the parent out: a list or a create without it would mix or orphan children.
  if (parent && ![resource.paths.list, resource.paths.create ?? resource.paths.list, resource.order?.path].every((path) => !path || pathParams(path).includes(parent.param))) {
    throw new Error(`Resource ${resource.name}: its list, create and order paths must name the parent`);
  }
  if (resource.order && !columns.position) throw new Error(`Resource ${resource.name}: an order needs a position column`);
  // Text sorts alphabetically for people, with the same expression its index is built on.
  const sortKey = (key: string) => (column(key).dataType === 'string' ? alphabetical(column(key)) : column(key));
  const route = app.withTypeProvider<ZodTypeProvider>();
  const entityResponse = successSchema(resource.entity);
  const listResponse = successSchema(z.array(resource.entity));
  const singleton = resource.singleton === true;
  const listPath = resource.paths.list;
  const createPath = resource.paths.create ?? (singleton ? resource.paths.item : listPath);
  if (!createPath) throw new Error(`Resource ${resource.name}: no path to create on`);

  /** A route's policy and, for a website-scoped entry, where its website comes from. */
  function config(operation: Operation, path: string, source?: WebsiteSource): { policy: Policy; website?: WebsiteSource } {
    const policy = resource.access[operation];
    // A website's own record: the route's id is the website the guard resolves.
    if (resource.scope === 'owner' && typeof policy === 'object') return { policy, website: { from: 'path', param: resource.itemParam! } };
    if (resource.scope !== 'website') return { policy };
    const param = resource.websiteParam!;
    const named = pathParams(path);
    // The website is named by the path, else by the parent it names (`/gastro-menus/:menuId/items`),
    // else by the row itself (`/gastro-menus/items/:itemId`).
    const website: WebsiteSource =
      source ??
      (named.includes(param)
        ? { from: 'path', param }
        : parent && named.includes(parent.param)
          ? { from: 'row', param: parent.param, table: parentTable! }
          : { from: 'row', param: resource.itemParam!, table });
    return { policy: resource.access[operation], website };
  }

  /** What the wire shows of a row: the entity base, the fields and computed fields; never a secret one. */
  const toEntity = (request: FastifyRequest, row: Row, reveal?: Values) => {
    const entity: Values = { _id: row.id, version: row.version, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
    for (const key of shownKeys) entity[key] = row[key];
    if (image) entity[image.field] = fileUrl(row[imageColumn!] as string | null);
    const shown = hooks.present ? hooks.present(entity, row, request) : entity;
    if (!reveal) return shown;
    // Shown in this answer and never again: a retry under its Idempotency-Key answers without them.
    revealOnce(request, reveal);
    return { ...shown, ...reveal };
  };
  /**
   * The values a create or update writes, as its hooks left them (a sanitizer writes `&` as
   * `&amp;`), hold to the limits the entity is answered with: else nothing is written, since the
   * row could not be answered, and a list holding it would fail for everyone.
   */
  const answered: Readonly<Record<string, z.core.$ZodType>> = { ...resource.fields, ...resource.computed };
  function storable(values: Values): Values {
    for (const [key, value] of Object.entries(values)) {
      const schema = answered[key];
      const checked = schema && value !== undefined ? z.safeParse(schema, value) : undefined;
      if (!checked || checked.success) continue;
      const issue = checked.error.issues[0]!;
      const longer = issue.code === 'too_big' && issue.origin === 'string';
      throw fieldError(['body', key, ...issue.path].join('.'), longer ? messages.tooLongAsStored : issueMessage(issue));
    }
    return values;
  }
  const say = (request: FastifyRequest, which: 'created' | 'updated' | 'deleted') => {
    const [descriptor, values] = resourceMessages(resource, request.t)[which];
    return request.t(descriptor, values);
  };

  /**
   * The rows this caller may touch, and what a create stamps on its row: one branch per scope.
   * A website route's guard resolved its website; the raw parameter is never read here.
   */
  function scope(request: FastifyRequest): Scope {
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
        return { where: and(ownedBy(auth.user.id), rows), values };
      }
    }
  }

  /** The rows whose owner columns name the user, directly or through the row they point at. */
  function ownedBy(userId: string): SQL | undefined {
    return or(
      ...resource.owners.map((key) => {
        const link = ownedThrough[key];
        if (!link) return eq(column(key), userId);
        const linked = getTableColumns(link.table) as Record<string, PgColumn>;
        return inArray(column(key), db.select({ id: linked.id! }).from(link.table).where(eq(linked[link.owner]!, userId)));
      }),
    );
  }

  /**
   * A create or update body as stored: owner columns only from admins (everyone else's rows are
   * stamped with themselves); scope and computed columns never reach here, the schema drops them.
   */
  function written(request: FastifyRequest, body: Values, creating: boolean): Values {
    if (resource.adminOnly.length === 0) return body;
    if (!isAdmin(principal(caller(request)))) return Object.fromEntries(Object.entries(body).filter(([key]) => !resource.adminOnly.includes(key)));
    const first = resource.owners[0];
    if (creating && first && body[first] == null) throw fieldError(`body.${first}`, messages.required);
    return body;
  }

  /**
   * Runs a write in a transaction (inside a request's held one, a savepoint: ADR 016), so a statement
   * the database refuses leaves nothing of the write and the request can still read and answer.
   */
  const transact = <T>(run: (tx: Tx) => Promise<T>): Promise<T> => db.transaction(run);

  /** How many rows `where` selects: for the whole table, the count its triggers keep, when it keeps one. */
  async function countRows(where: SQL | undefined): Promise<number> {
    if (!where && !rows) {
      const [kept] = await keptCount(db).execute({ tableName });
      if (kept) return kept.n;
    }
    const [counted] = await db.select({ total: count() }).from(table).where(where);
    return counted?.total ?? 0;
  }

  /** The item the path names, within the caller's scope; a singleton's is its website's one row. */
  function itemWhere(request: FastifyRequest): SQL | undefined {
    const { where } = scope(request);
    if (singleton) return where;
    const id = (request.params as Params)[resource.itemParam!];
    if (!isUuid(id)) throw new HttpError(404, messages.notFound);
    return and(eq(column('id'), id), where)!;
  }

  /** An update or delete that matched nothing: the item is gone (404) or was changed meanwhile (409 with it). */
  async function missOrConflict(request: FastifyRequest, where: SQL | undefined): Promise<HttpError> {
    const [current] = (await db.select().from(table).where(where)) as Row[];
    if (!current) return new HttpError(404, messages.notFound);
    const [descriptor, values] = resourceMessages(resource, request.t).conflict;
    return new HttpError(409, { ...descriptor, values }, toEntity(request, current));
  }

  /** The entry field whose column a constraint is named after (`subcategories_category_id_…_fk` → categoryId). */
  // A hand-named composite key (`posts_cover_fk` on website_id, cover_media_id) names its field by its columns.
  const keyFields = new Map(
    getTableConfig(table).foreignKeys.map((key) => {
      const names = key.reference().columns.map((one) => one.name);
      return [key.getName(), fieldKeys.find((field) => names.includes(column(field).name))] as const;
    }),
  );
  function fieldOf(constraint: string | undefined, fallback: string): string {
    if (constraint === `${tableName}_pkey`) return '_id';
    const keyed = constraint ? keyFields.get(constraint) : undefined;
    if (keyed) return keyed;
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
      // A singleton made meanwhile (another device's first save): the record there is, as a conflict.
      if (pg?.code === PG_UNIQUE_VIOLATION && singleton && request.method === 'POST') throw await missOrConflict(request, itemWhere(request));
      if (pg?.code === PG_UNIQUE_VIOLATION) throw fieldError(field(resource.unique?.[0] ?? '_id'), messages.valueTaken);
      if ((pg?.code === PG_FOREIGN_KEY_VIOLATION || pg?.code === PG_RESTRICT_VIOLATION) && action === 'delete') {
        throw new HttpError(400, { ...messages.stillInUse, values: { item: request.t(resource.label.one) } });
      }
      // A reference to a row that does not exist, or (by the composite keys of website tables)
      // one of another website: a field error, and nothing stored.
      if (pg?.code === PG_FOREIGN_KEY_VIOLATION) throw fieldError(field(fieldKeys[0]!), messages.unknownReference);
      throw err;
    }
  }

  /** The parent the path names is a record of the route's website; else the whole path is unknown (404). */
  async function parentFound(request: FastifyRequest): Promise<void> {
    if (!parent) return;
    const { websiteId, [parent.param]: parentId } = scope(request).values as Values;
    // A path without its website had the guard find the website through this very parent (config above): it exists, and is of it.
    if (parentId === undefined || (request.params as Params)[resource.websiteParam!] === undefined) return;
    const parentColumns = getTableColumns(parentTable!) as Record<string, PgColumn>;
    const [found] = await db
      .select({ id: parentColumns.id! })
      .from(parentTable!)
      .where(and(eq(parentColumns.id!, parentId as string), eq(parentColumns.websiteId!, websiteId as string)));
    if (!found) throw new HttpError(404, messages.notFound);
  }

  async function list(request: FastifyRequest, narrower?: SQL, scoped = true) {
    await parentFound(request);
    const query = request.query as ListQuery;
    const search = query.search ? or(...resource.search.map((key) => ilike(column(key), likePattern(query.search!)))) : undefined;
    const filters = Object.keys(resource.filters)
      .filter((key) => query[key] !== undefined)
      .map((key) => eq(column(key), query[key]));
    const ids = query.ids ? inArray(column('id'), query.ids.filter((id) => isUuid(id))) : undefined;
    const where = and(scoped ? scope(request).where : rows, narrower, hooks.narrow?.(request), search, ids, ...filters);
    const order = query.sortOrder === 'desc' ? desc : asc;
    // Two indexed queries side by side: the page stops after `limit` rows, the count reads an index
    // (or, for the whole table, the row count its triggers keep).
    const [totalItems, found] = await Promise.all([
      countRows(where),
      db
        .select()
        .from(table)
        .where(where)
        .orderBy(order(sortKey(query.sortBy ?? resource.sort[0])), order(column('id')))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
    ]);
    return ok((found as Row[]).map((row) => toEntity(request, row)), {
      pagination: {
        currentPage: query.page,
        // An empty list still is one (empty) page.
        totalPages: Math.max(1, Math.ceil(totalItems / query.limit)),
        totalItems,
        itemsPerPage: query.limit,
      },
    });
  }

  async function get(request: FastifyRequest, reply: FastifyReply) {
    await parentFound(request);
    const [row] = (await db.select().from(table).where(itemWhere(request))) as Row[];
    if (!row) throw new HttpError(404, messages.notFound);
    tag(reply, row);
    return ok(toEntity(request, row));
  }

  async function create(request: FastifyRequest, reply: FastifyReply) {
    const { _id, ...body } = request.body as { _id?: string } & Values;
    const values = written(request, body, true);
    await parentFound(request);
    const { where: siblings, values: stamped } = scope(request);
    // A new child comes last among its siblings.
    const position = resource.order
      ? { position: sql`(select coalesce(max(${column('position')}) + 1, 0) from ${table} where ${siblings})` }
      : {};
    const now = clock();
    const [row, reveal] = await guarded(request, 'write', () =>
      transact(async (tx) => {
        const hook = hookContext(request, tx);
        const stored = hooks.beforeCreate ? storable(await hooks.beforeCreate(values, hook)) : values;
        const insert = { ...stored, ...stamped, ...position, id: _id ?? uuidv7(now.getTime()), version: 1, createdAt: now, updatedAt: now };
        const [inserted] = (await tx.insert(table).values(insert).returning()) as Row[];
        if (hooks.afterCreate) await hooks.afterCreate(inserted!, hook);
        return [inserted!, hook.reveal] as const;
      }),
    );
    tag(reply.status(201), row);
    return ok(toEntity(request, row, reveal), { message: say(request, 'created') });
  }

  async function update(request: FastifyRequest, reply: FastifyReply) {
    await parentFound(request);
    const where = itemWhere(request);
    const version = expectedVersion(request);
    const values = written(request, request.body as Values, false);
    const [row, reveal] = await guarded(request, 'write', () =>
      transact(async (tx) => {
        const hook = hookContext(request, tx);
        const changes = hooks.beforeUpdate ? storable(await hooks.beforeUpdate(values, hook)) : values;
        // One statement: the version check and the change cannot be split by another writer.
        const [changed] = (await tx
          .update(table)
          .set({ ...changes, version: version + 1, updatedAt: clock() })
          .where(and(where, eq(column('version'), version)))
          .returning()) as Row[];
        if (changed && hooks.afterUpdate) await hooks.afterUpdate(changed, hook);
        return [changed, hook.reveal] as const;
      }),
    );
    if (!row) throw await missOrConflict(request, where);
    tag(reply, row);
    return ok(toEntity(request, row, reveal), { message: say(request, 'updated') });
  }

  async function remove(request: FastifyRequest) {
    await parentFound(request);
    const where = itemWhere(request);
    const version = expectedVersion(request);
    const row = await guarded(request, 'delete', () =>
      transact(async (tx) => {
        const [deleted] = (await tx
          .delete(table)
          .where(and(where, eq(column('version'), version)))
          .returning()) as Row[];
        if (deleted && hooks.afterDelete) await hooks.afterDelete(deleted, hookContext(request, tx));
        return deleted;
      }),
    );
    if (!row) throw await missOrConflict(request, where);
    if (image && row[imageColumn!]) await files!.remove(row[imageColumn!] as string);
    return ok({ _id: row.id }, { message: say(request, 'deleted') });
  }

  // A list's figures (spec §7 `/stats`): how many in all, how many are new, and per value of each enum filter.
  const groupKeys = Object.entries(resource.filters)
    .filter(([, schema]) => (schema as z.core.$ZodType)._zod.def.type === 'enum')
    .map(([key]) => key);
  async function stats(request: FastifyRequest) {
    const where = scope(request).where;
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
  const statsPath = resource.paths.stats;
  if (statsPath) {
    route.get(statsPath, { config: config('list', statsPath), schema: { ...paramsSchema(statsPath), response: { 200: successSchema(StatsSchema) } } }, stats);
  }

  /**
   * The whole order of a parent's children at once (ADR 012): it must name each child exactly
   * once, and `If-Match` the order it was made from; a different current order is a conflict
   * (409 with that order), so a reorder made elsewhere meanwhile is shown, not overwritten.
   */
  async function reorder(request: FastifyRequest, reply: FastifyReply) {
    const { field } = resource.order!;
    await parentFound(request);
    const ids = (request.body as Record<string, string[]>)[field]!;
    const base = /^\s*(?:W\/)?"?([\w-]{1,40})"?\s*$/.exec(request.headers['if-match'] ?? '')?.[1];
    if (!base) throw new HttpError(428, messages.versionRequired);
    const { where } = scope(request);
    const position = column('position');
    await db.transaction(async (tx) => {
      const current = (await tx.select({ id: column('id') }).from(table).where(where).orderBy(asc(position), asc(column('id'))).for('update')).map((row) => row.id as string);
      if (orderTag(current) !== base) throw new HttpError(409, messages.orderConflict, { [field]: current });
      const known = new Set(current);
      if (ids.length !== current.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) throw fieldError(`body.${field}`, messages.orderMismatch);
      const given = sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
      await tx.execute(
        sql`update ${table} set ${sql.identifier(position.name)} = o.ord - 1 from unnest(array[${given}]::uuid[]) with ordinality as o(id, ord) where ${column('id')} = o.id and ${where}`,
      );
    });
    reply.header('etag', `"${orderTag(ids)}"`);
    return ok({ [field]: ids }, { message: request.t(messages.orderSaved) });
  }
  if (resource.order) {
    const { path, field } = resource.order;
    route.put(
      path,
      {
        config: config('update', path),
        schema: { ...paramsSchema(path), body: z.object({ [field]: z.array(z.string()).max(MAX_ORDERED_CHILDREN) }), response: { 200: successSchema(z.object({ [field]: z.array(z.string()) })) } },
      },
      reorder,
    );
  }

  /**
   * A new image for the record: the whole form read (a cut-off one stores nothing), the image
   * stored, then put in place of the old one, which is removed once nothing refers to it.
   */
  async function upload(request: FastifyRequest, reply: FastifyReply) {
    const where = itemWhere(request);
    const [file] = (await readForm(request, 1)).files;
    const stored = await toWebp(file!.data);
    const key = column(imageColumn!);
    // A store that failed part-way may have left the file: it goes with whatever failed.
    const [row, replaced] = await files!
      .put(stored.key, stored.data)
      .then(() =>
        db.transaction(async (tx) => {
          const [before] = await tx.select({ key }).from(table).where(where).for('update');
          if (!before) return [undefined, null] as const;
          const [changed] = (await tx
            .update(table)
            .set({ [imageColumn!]: stored.key, version: sql`${column('version')} + 1`, updatedAt: clock() })
            .where(where)
            .returning()) as Row[];
          return [changed, before.key as string | null] as const;
        }),
      )
      .catch(async (error: unknown) => {
        await files!.remove(stored.key);
        throw error;
      });
    if (!row) {
      await files!.remove(stored.key);
      throw new HttpError(404, messages.notFound);
    }
    if (replaced) await files!.remove(replaced);
    tag(reply, row);
    return ok(toEntity(request, row), { message: say(request, 'updated') });
  }
  if (image) route.post(image.path, { config: config('update', image.path), schema: { ...paramsSchema(image.path), response: { 200: entityResponse } } }, upload);

  const itemPath = resource.paths.item;
  const itemParams = paramsSchema(itemPath);
  if (listPath && sameShape(listPath, itemPath)) {
    // The spec gives one path two meanings (a website's list, a record by its id): one route, and
    // what the id turned out to be decides (policy.ts resolves it as 'row-or-path').
    const source: WebsiteSource = { from: 'row-or-path', param: resource.itemParam!, table };
    route.get(
      itemPath,
      { config: config('get', itemPath, source), schema: { ...itemParams, querystring: resource.query, response: { 200: z.union([entityResponse, listResponse]) } } },
      (request, reply) => (request.website?.named === 'row' ? get(request, reply) : list(request)),
    );
  } else {
    if (listPath) {
      route.get(listPath, { config: config('list', listPath), schema: { ...paramsSchema(listPath), querystring: resource.query, response: { 200: listResponse } } }, (request) => list(request));
    }
    route.get(itemPath, { config: config('get', itemPath), schema: { ...itemParams, response: { 200: entityResponse } } }, get);
  }
  // The installation's one record (a global singleton) always exists, made by its migration: it is read and changed, never made or removed.
  const lasting = singleton && resource.scope === 'global';
  if (!lasting && !resource.createdBy) {
    route.post(createPath, { config: config('create', createPath), schema: { ...paramsSchema(createPath), body: resource.create, response: { 201: entityResponse } } }, create);
  }
  if (singleton) {
    // A singleton's PUT also makes its one record the first time (then without If-Match).
    route.put(itemPath, { config: config('update', itemPath), schema: { ...itemParams, body: resource.update, response: { 200: entityResponse, 201: entityResponse } } }, async (request, reply) => {
      const [existing] = await db.select({ id: column('id') }).from(table).where(itemWhere(request));
      if (existing) return update(request, reply);
      // The first save makes the record, so it must hold what a create needs: checked by the
      // validator every route's body goes through, its failure answered as theirs are (http/errors.ts).
      const made = request.validateInput(request.body, resource.create) as unknown as { value: Values } | { error: FastifySchemaValidationError[] };
      if ('error' in made) throw Object.assign(new Error('body validation failed'), { statusCode: 400, validation: made.error, validationContext: 'body' });
      request.body = made.value;
      return create(request, reply);
    });
  } else {
    route.put(itemPath, { config: config('update', itemPath), schema: { ...itemParams, body: resource.update, response: { 200: entityResponse } } }, update);
  }
  if (!lasting) {
    route.delete(itemPath, { config: config('delete', itemPath), schema: { ...itemParams, response: { 200: successSchema(z.object({ _id: z.string() })) } } }, remove);
  }
  return { list, entity: toEntity, missOrConflict, listSchema: { querystring: resource.query, response: { 200: listResponse } }, entitySchema: { response: { 200: entityResponse } } };
}

/**
 * What a module's own routes reuse of an entry's: its list (narrowed further, or, for a route
 * whose policy already decided, not by the caller's scope) and the entity as the wire shows it.
 */
export interface ResourceRoutes {
  list(request: FastifyRequest, narrower?: SQL, scoped?: boolean): Promise<unknown>;
  entity(request: FastifyRequest, row: Row, reveal?: Values): Values;
  /** What a versioned change that matched no row of `where` answers: 404 when there is none, else 409 with it. */
  missOrConflict(request: FastifyRequest, where: SQL | undefined): Promise<HttpError>;
  /** Fastify schemas of a list route (query and answer) and of an entity's answer. */
  listSchema: { querystring: z.core.$ZodType; response: { 200: z.core.$ZodType } };
  entitySchema: { response: { 200: z.core.$ZodType } };
}
