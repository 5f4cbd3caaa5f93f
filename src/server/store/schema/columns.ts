import { integer, timestamp, uuid } from 'drizzle-orm/pg-core';
import { uuidv7 } from '../../../contract/uuid';

/** Every entity carries these (docs/design.md §4): `_id` on the wire, `version` for If-Match. */
export const entityColumns = {
  id: uuid('id').primaryKey().$defaultFn(() => uuidv7()),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
