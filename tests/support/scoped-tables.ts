import { sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { entityColumns } from '../../src/server/store/schema/columns';
import type { Store } from '../../src/server/store/store';

/*
 * The tables of scoped-resources.ts. A website-scoped table carries `website_id` (children too),
 * is unique on (website_id, id), and a reference inside the website is a composite foreign key
 * (website_id, x_id) → (website_id, id): another website's row cannot be pointed at (ADR 009).
 */

export const topicsTable = pgTable('test_topics', {
  ...entityColumns,
  websiteId: uuid('website_id').notNull(),
  name: text('name').notNull(),
});

export const notesTable = pgTable('test_notes', {
  ...entityColumns,
  websiteId: uuid('website_id').notNull(),
  title: text('title').notNull(),
  topicId: uuid('topic_id'),
  slug: text('slug').notNull(),
  secret: text('secret'),
});

export const menusTable = pgTable('test_menus', { ...entityColumns, websiteId: uuid('website_id').notNull(), name: text('name').notNull() });

export const seoTable = pgTable('test_seo', { ...entityColumns, websiteId: uuid('website_id').notNull(), title: text('title').notNull() });

export const projectsTable = pgTable('test_projects', {
  ...entityColumns,
  name: text('name').notNull(),
  ownerId: uuid('owner_id').notNull(),
  partnerId: uuid('partner_id'),
});

const base = sql.raw(`id uuid primary key, version integer not null default 1,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now()`);

export async function createScopedTables(store: Store): Promise<void> {
  const statements = [
    sql`create table test_topics (${base}, website_id uuid not null references websites(id) on delete cascade, name text not null,
      constraint test_topics_website_key unique (website_id, id))`,
    sql`create table test_notes (${base}, website_id uuid not null references websites(id) on delete cascade, title text not null,
      topic_id uuid, slug text not null, secret text,
      constraint test_notes_topic_id_fk foreign key (website_id, topic_id) references test_topics (website_id, id) on delete cascade)`,
    sql`create index test_notes_website_idx on test_notes (website_id)`,
    sql`create table test_menus (${base}, website_id uuid not null references websites(id) on delete cascade, name text not null)`,
    sql`create table test_seo (${base}, website_id uuid not null unique references websites(id) on delete cascade, title text not null)`,
    sql`create table test_projects (${base}, name text not null, owner_id uuid not null references users(id), partner_id uuid references users(id))`,
  ];
  for (const statement of statements) await store.db.execute(statement);
}
