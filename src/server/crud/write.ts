import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { z } from 'zod';
import { messages } from '../../contract/messages';
import { isAdmin } from '../../contract/permissions';
import { uuidv7 } from '../../contract/uuid';
import { fieldError, HttpError, issueMessage } from '../http/errors';
import { ok } from '../http/reply';
import { caller, principal } from '../policy';
import { missOrConflict, say, tag, toEntity } from './answer';
import { guarded } from './constraints';
import { dropFilesOf } from './files';
import { intoRecycleBin } from './recycle-bin';
import type { ResourceContext } from './context';
import type { HookContext } from './hooks';
import { itemWhere, parentFound, visibleRows } from './rows';
import type { Row, Tx, Values } from './types';

/** The version an update or delete was made from: `If-Match: "3"` (quotes optional) → 3; none → 428. */
export function expectedVersion(request: FastifyRequest): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(request.headers['if-match'] ?? '');
  if (!match) throw new HttpError(428, messages.versionRequired);
  return Number(match[1]);
}

export async function create(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  const { resource, table, hooks, clock, column } = context;
  const { _id, ...body } = request.body as { _id?: string } & Values;
  const values = written(context, request, body, true);
  await parentFound(context, request);
  const { where: siblings, values: stamped } = visibleRows(context, request);
  // A new child comes last among its siblings.
  const position = resource.order ? { position: sql`(select coalesce(max(${column('position')}) + 1, 0) from ${table} where ${siblings})` } : {};
  const now = clock();
  const [row, reveal] = await guarded(context, request, 'write', () =>
    transact(context, async (tx) => {
      const hook = hookContext(request, tx);
      const stored = hooks.beforeCreate ? storable(context, await hooks.beforeCreate(values, hook)) : values;
      const insert = { ...stored, ...stamped, ...position, id: _id ?? uuidv7(now.getTime()), version: 1, createdAt: now, updatedAt: now };
      const [inserted] = (await tx.insert(table).values(insert).returning()) as Row[];
      if (hooks.afterCreate) await hooks.afterCreate(inserted!, hook);
      return [inserted!, hook.reveal] as const;
    }),
  );
  tag(reply.status(201), row);
  return ok(toEntity(context, request, row, reveal), { message: say(context, request, 'created') });
}

export async function update(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  const { table, hooks, clock, column } = context;
  await parentFound(context, request);
  const where = itemWhere(context, request);
  const version = expectedVersion(request);
  const values = written(context, request, request.body as Values, false);
  const [row, reveal] = await guarded(context, request, 'write', () =>
    transact(context, async (tx) => {
      const hook = hookContext(request, tx);
      const changes = hooks.beforeUpdate ? storable(context, await hooks.beforeUpdate(values, hook)) : values;
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
  if (!row) throw await missOrConflict(context, request, where);
  tag(reply, row);
  return ok(toEntity(context, request, row, reveal), { message: say(context, request, 'updated') });
}

/** A singleton's PUT: it changes the one record, or makes it the first time (then without If-Match). */
export async function save(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  const [existing] = await context.db.select({ id: context.column('id') }).from(context.table).where(itemWhere(context, request));
  if (existing) return update(context, request, reply);
  // The first save makes the record, so it must hold what a create needs: checked by the
  // validator every route's body goes through, its failure answered as theirs are (http/errors.ts).
  const made = request.validateInput(request.body, context.resource.create) as unknown as { value: Values } | { error: FastifySchemaValidationError[] };
  if ('error' in made) throw Object.assign(new Error('body validation failed'), { statusCode: 400, validation: made.error, validationContext: 'body' });
  request.body = made.value;
  return create(context, request, reply);
}

export async function remove(context: ResourceContext, request: FastifyRequest) {
  const { resource, table, hooks, column } = context;
  await parentFound(context, request);
  // An entry any of the website's people reach narrows each caller's rows in its hook: a row they cannot see is unknown (404), as its read answers.
  const where = and(itemWhere(context, request), 'members' in resource ? hooks.narrow?.(request) : undefined);
  const version = expectedVersion(request);
  const [row, binned] = await guarded(context, request, 'delete', () =>
    transact(context, async (tx) => {
      const [deleted] = (await tx
        .delete(table)
        .where(and(where, eq(column('version'), version)))
        .returning()) as Row[];
      if (!deleted) return [undefined, false] as const;
      // Into the recycle bin before its hooks run, so its children are what the delete itself took along.
      const kept = await intoRecycleBin(context, tx, deleted);
      await hooks.afterDelete?.(deleted, hookContext(request, tx));
      return [deleted, kept] as const;
    }),
  );
  if (!row) throw await missOrConflict(context, request, where);
  // What the bin keeps may come back with its files; they go when its entry does (routes/recycle-bin.ts).
  if (!binned) dropFilesOf(context, row, request.log);
  return ok({ _id: row.id }, { message: say(context, request, 'deleted') });
}

/**
 * A create or update body as stored: owner columns only from admins (everyone else's rows are
 * stamped with themselves); scope and computed columns never reach here, the schema drops them.
 */
function written({ resource }: ResourceContext, request: FastifyRequest, body: Values, creating: boolean): Values {
  if (resource.adminOnly.length === 0) return body;
  if (!isAdmin(principal(caller(request)))) return Object.fromEntries(Object.entries(body).filter(([key]) => !resource.adminOnly.includes(key)));
  const first = resource.owners[0];
  if (creating && first && body[first] == null) throw fieldError(`body.${first}`, messages.required);
  return body;
}

/**
 * The values a create or update writes, as its hooks left them (a sanitizer writes `&` as
 * `&amp;`), hold to the limits the entity is answered with: else nothing is written, since the
 * row could not be answered, and a list holding it would fail for everyone.
 */
function storable({ resource }: ResourceContext, values: Values): Values {
  const answered: Readonly<Record<string, z.core.$ZodType>> = { ...resource.fields, ...resource.computed };
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

/**
 * Runs a write in a transaction (inside a request's held one, a savepoint: ADR 016), so a statement
 * the database refuses leaves nothing of the write and the request can still read and answer.
 */
const transact = <T>({ db }: ResourceContext, run: (tx: Tx) => Promise<T>): Promise<T> => db.transaction(run);

/** What a hook is handed: the transaction and the request (`request.website`: the website its guard resolved). */
const hookContext = (request: FastifyRequest, tx: Tx): HookContext => ({ tx, request, reveal: {} });
