import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every change of a tracked table, written by its row trigger in the change's own transaction
 * (migration 0014, ADR 024): a change that rolls back leaves none. `values` is the record after the
 * change (before it, for a delete), `previous` the old values of the columns in `changed`; both keep
 * the columns the migration names as secret out (a changed secret is only named in `changed`).
 * Column names as stored: the entry reading a history maps them to its fields.
 */
export const revisions = pgTable(
  'revisions',
  {
    // An entity's columns (a revision is read through the registry: the activity log); it never changes.
    id: uuid('id').primaryKey().defaultRandom(),
    version: integer('version').notNull().default(1),
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    /** The website the record belongs to (a website: itself); null in the admin area. */
    websiteId: uuid('website_id'),
    /** create, update, delete, or reorder (a parent's children, one revision for the whole order). */
    action: text('action').notNull(),
    /** The record's version after the change. */
    recordVersion: integer('record_version'),
    actorId: uuid('actor_id'),
    /** user, visitor (a form sent through the delivery API) or system (a job, the first start). */
    actorKind: text('actor_kind').notNull(),
    actorName: text('actor_name').notNull().default(''),
    device: text('device').notNull().default(''),
    changed: text('changed').array().notNull().default(sql`'{}'`),
    previous: jsonb('previous'),
    values: jsonb('values').$type<Record<string, unknown>>().notNull(),
    /** Changes of one transaction share it: a menu's delete and its items' cascaded ones. */
    tx: bigint('tx', { mode: 'number' }).notNull().default(sql`txid_current()`),
    // The moment of the statement, not of its transaction: the changes of one transaction keep their order.
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    // A record's history (the activity filtered to it), a website's activity, everyone's (admins): newest first, a page at a time.
    index('revisions_record_idx').on(t.recordId, t.createdAt),
    index('revisions_website_idx').on(t.websiteId, t.createdAt),
    index('revisions_created_idx').on(t.createdAt),
    // A transaction's changes: what the recycle bin restores or purges (ADR 025).
    index('revisions_tx_idx').on(t.tx),
  ],
);
