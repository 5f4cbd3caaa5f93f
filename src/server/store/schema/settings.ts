import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Installation-wide settings, one row per key (white-label branding, first-start marker, …). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
