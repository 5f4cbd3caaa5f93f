import { bigint, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { entityColumns } from './columns';
import { websites } from './tenancy';

/**
 * What a person deleted and may bring back (issue 20, ADR 025): one row per delete, written by the
 * generic delete (crud/recycle-bin.ts) in the delete's own transaction. The records themselves are
 * the delete revisions of its transaction (`tx`, schema/revisions.ts), the record's children
 * (cascaded deletes) among them; a restore inserts them again, the maintenance job purges both
 * after RECYCLE_BIN_DAYS. `created_at` is when it was deleted.
 */
export const recycleBin = pgTable(
  'recycle_bin',
  {
    ...entityColumns,
    /** The website whose record it was; null: the admin area's (catalogs, websites, partners). */
    websiteId: uuid('website_id').references(() => websites.id, { onDelete: 'cascade' }),
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    /** The registry entry's name: the client shows its noun. */
    resource: text('resource').notNull(),
    /** The record's title field when it was deleted. */
    title: text('title').notNull().default(''),
    /** The delete's transaction: its revisions hold the records. */
    tx: bigint('tx', { mode: 'number' }).notNull(),
    actorName: text('actor_name').notNull().default(''),
    /** How many other records went with it (a menu's items). */
    children: integer('children').notNull().default(0),
  },
  (t) => [index('recycle_bin_website_idx').on(t.websiteId, t.createdAt), index('recycle_bin_created_idx').on(t.createdAt)],
);
