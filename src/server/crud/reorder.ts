import { asc, getTableName, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { orderTag } from '../../contract/order';
import { fieldError, HttpError } from '../http/errors';
import { ok } from '../http/reply';
import type { ResourceContext } from './context';
import { recordReorder } from './history';
import { parentFound, visibleRows } from './rows';

/**
 * The whole order of a parent's children at once (ADR 012): it must name each child exactly
 * once, and `If-Match` the order it was made from; a different current order is a conflict
 * (409 with that order), so a reorder made elsewhere meanwhile is shown, not overwritten.
 */
export async function reorder(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  const { resource, db, table, column, parent } = context;
  const { field } = resource.order!;
  await parentFound(context, request);
  const ids = (request.body as Record<string, string[]>)[field]!;
  const base = /^\s*(?:W\/)?"?([\w-]{1,40})"?\s*$/.exec(request.headers['if-match'] ?? '')?.[1];
  if (!base) throw new HttpError(428, messages.versionRequired);
  const { where } = visibleRows(context, request);
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
    // The order is the parent's (a menu's dishes), or the website's when the children have none.
    const websiteId = request.website?.id ?? null;
    const parentId = parent && (request.params as Record<string, string>)[parent.param];
    const owner = parent && parentId ? { tableName: getTableName(parent.table), id: parentId, websiteId } : { tableName: 'websites', id: websiteId!, websiteId };
    if (owner.id) await recordReorder(tx, owner, field, current, ids);
  });
  reply.header('etag', `"${orderTag(ids)}"`);
  return ok({ [field]: ids }, { message: request.t(messages.orderSaved) });
}
