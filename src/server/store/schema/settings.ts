import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { entityColumns } from './columns';

/** Installation markers, one row per key (the first start's). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The installation's settings (contract/resources/settings.ts): exactly one row, made on the first start. */
export const appSettings = pgTable(
  'app_settings',
  {
    ...entityColumns,
    one: boolean('one').notNull().default(true).unique('app_settings_one_key'),
    cmsName: text('cms_name').notNull().default(''),
    helpUrl: text('help_url').notNull().default(''),
    supportUrl: text('support_url').notNull().default(''),
    defaultLanguage: text('default_language').notNull().default('en'),
    mailFrom: text('mail_from').notNull().default(''),
    /** The storage key of the logo (files/storage.ts); the answer shows its URL. */
    cmsLogoKey: text('cms_logo_key'),
  },
  (t) => [check('app_settings_one_row', sql`${t.one}`)],
);
