import { getTableConfig } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { fieldError, HttpError } from '../http/errors';
import { PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION, PG_UNIQUE_VIOLATION, pgError } from '../store/pg-errors';
import { missOrConflict } from './answer';
import type { ResourceContext } from './context';
import { itemWhere } from './rows';

/** Constraint violations are the caller's input, answered as field errors: never a 500 for bad input. */
export async function guarded<T>(context: ResourceContext, request: FastifyRequest, action: 'write' | 'delete', run: () => Promise<T>): Promise<T> {
  const { resource, singleton, fieldKeys } = context;
  try {
    return await run();
  } catch (err) {
    const pg = pgError(err);
    const field = (fallback: string) => `body.${fieldOf(context, pg?.constraint, fallback)}`;
    // A singleton made meanwhile (another device's first save): the record there is, as a conflict.
    if (pg?.code === PG_UNIQUE_VIOLATION && singleton && request.method === 'POST') throw await missOrConflict(context, request, itemWhere(context, request));
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

/** The entry field whose column a constraint is named after (`subcategories_category_id_…_fk` → categoryId). */
function fieldOf({ table, tableName, fieldKeys, column }: ResourceContext, constraint: string | undefined, fallback: string): string {
  if (constraint === `${tableName}_pkey`) return '_id';
  // A hand-named composite key (`posts_cover_fk` on website_id, cover_media_id) names its field by its columns.
  const foreignKey = constraint ? getTableConfig(table).foreignKeys.find((one) => one.getName() === constraint) : undefined;
  const names = foreignKey?.reference().columns.map((one) => one.name);
  const keyed = names && fieldKeys.find((field) => names.includes(column(field).name));
  if (keyed) return keyed;
  const rest = constraint?.startsWith(`${tableName}_`) ? constraint.slice(tableName.length + 1) : (constraint ?? '');
  const named = fieldKeys.filter((key) => rest.includes(column(key).name)).toSorted((a, b) => column(b).name.length - column(a).name.length);
  return named[0] ?? fallback;
}
