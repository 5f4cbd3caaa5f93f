import type { SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { resourceMessages } from '../../contract/resource';
import { fileUrl } from '../files/storage';
import { HttpError } from '../http/errors';
import { revealOnce } from '../http/idempotency';
import type { ResourceContext } from './context';
import type { Row, Values } from './types';

/** What the wire shows of a row: the entity base, the fields and computed fields; never a secret one. */
export function toEntity({ shownKeys, instants, image, hooks }: ResourceContext, request: FastifyRequest, row: Row, reveal?: Values): Values {
  const entity: Values = { _id: row.id, version: row.version, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
  for (const key of shownKeys) entity[key] = instants.has(key) && row[key] != null ? new Date(row[key] as string).toISOString() : row[key];
  if (image) entity[image.field] = fileUrl(row[image.column] as string | null);
  const shown = hooks.present ? hooks.present(entity, row, request) : entity;
  if (!reveal) return shown;
  // Shown in this answer and never again: a retry under its Idempotency-Key answers without them.
  revealOnce(request, reveal);
  return { ...shown, ...reveal };
}

// The version as an entity tag, so a plain HTTP client can echo it in If-Match.
export const tag = (reply: FastifyReply, row: { version: number }) => reply.header('etag', `"${row.version}"`);

/** The entry's message for a change done (created, updated, deleted), in the request's language. */
export function say({ resource }: ResourceContext, request: FastifyRequest, which: 'created' | 'updated' | 'deleted'): string {
  const [descriptor, values] = resourceMessages(resource, request.t)[which];
  return request.t(descriptor, values);
}

/** An update or delete that matched nothing: the item is gone (404) or was changed meanwhile (409 with it). */
export async function missOrConflict(context: ResourceContext, request: FastifyRequest, where: SQL | undefined): Promise<HttpError> {
  const [current] = (await context.db.select().from(context.table).where(where)) as Row[];
  if (!current) return new HttpError(404, messages.notFound);
  const [descriptor, values] = resourceMessages(context.resource, request.t).conflict;
  return new HttpError(409, { ...descriptor, values }, toEntity(context, request, current));
}
