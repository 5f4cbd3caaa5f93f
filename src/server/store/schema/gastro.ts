import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { alphabetical } from './collation';
import { contentStatus, media } from './cms';
import { entityColumns } from './columns';
import { websites } from './tenancy';

// A restaurant's menus (spec §7 Gastro menus), on the pattern of schema/cms.ts: every table carries
// its website and every reference is a composite key through it (ADR 010), so a dish can only name
// a category of its own menu and a picture of its own website. The narrowed SET NULL clauses and
// the trigger clearing a picture's copied key are written by hand in the migration.

const websiteColumn = () =>
  uuid('website_id')
    .notNull()
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' });

export const gastroMenus = pgTable(
  'gastro_menus',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: contentStatus('status').notNull().default('draft'),
    language: text('language').notNull().default('de'),
  },
  (t) => [unique('gastro_menus_website_key').on(t.websiteId, t.id), index('gastro_menus_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`)],
);

export const gastroCategories = pgTable(
  'gastro_categories',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    menuId: uuid('menu_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    unique('gastro_categories_website_key').on(t.websiteId, t.id),
    // What a dish's category key points at: a category of the dish's own menu.
    unique('gastro_categories_menu_key').on(t.websiteId, t.menuId, t.id),
    foreignKey({ name: 'gastro_categories_menu_fk', columns: [t.websiteId, t.menuId], foreignColumns: [gastroMenus.websiteId, gastroMenus.id] }).onDelete('cascade'),
    // The website leads, as in every query of them: the planner then reads them in order, no sort.
    index('gastro_categories_menu_idx').on(t.websiteId, t.menuId, t.position, t.id),
  ],
);

/** A website's allergens: one legend for all its menus. The identifier is the letter a menu prints (A, B, …), unique per website whatever its case. */
export const gastroAllergens = pgTable(
  'gastro_allergens',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    identifier: text('identifier'),
    name: text('name').notNull(),
    content: jsonb('content').$type<Record<string, { name: string }>>().notNull().default({}),
  },
  (t) => [
    unique('gastro_allergens_website_key').on(t.websiteId, t.id),
    // Nulls are distinct: any number of allergens may go without a letter.
    uniqueIndex('gastro_allergens_identifier_key').on(t.websiteId, sql`upper(${t.identifier})`),
    index('gastro_allergens_identifier_idx').on(t.websiteId, alphabetical(t.identifier), sql`id`),
  ],
);

export const gastroItems = pgTable(
  'gastro_items',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    menuId: uuid('menu_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** In cents of `currency`: money is never a float. */
    price: integer('price').notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    categoryId: uuid('category_id'),
    /** Allergens of the website. An array has no foreign key: content/gastro.ts checks ids on write and removes a deleted allergen's. */
    allergenIds: uuid('allergen_ids').array().notNull().default(sql`'{}'`),
    available: boolean('available').notNull().default(true),
    mediaId: uuid('media_id'),
    /** The picture's thumbnail's storage key, copied from its media record (content/media-links.ts). */
    imageKey: text('image_key'),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    unique('gastro_items_website_key').on(t.websiteId, t.id),
    foreignKey({ name: 'gastro_items_menu_fk', columns: [t.websiteId, t.menuId], foreignColumns: [gastroMenus.websiteId, gastroMenus.id] }).onDelete('cascade'),
    // A category of the same menu; deleting it leaves its dishes without one.
    foreignKey({
      name: 'gastro_items_category_fk',
      columns: [t.websiteId, t.menuId, t.categoryId],
      foreignColumns: [gastroCategories.websiteId, gastroCategories.menuId, gastroCategories.id],
    }).onDelete('set null'),
    foreignKey({ name: 'gastro_items_media_fk', columns: [t.websiteId, t.mediaId], foreignColumns: [media.websiteId, media.id] }).onDelete('set null'),
    check('gastro_items_price_positive', sql`${t.price} >= 0`),
    // A menu's dishes in their order (its list and its reorder), and a category's (the SET NULL of its delete).
    index('gastro_items_menu_idx').on(t.websiteId, t.menuId, t.position, t.id),
    index('gastro_items_category_idx').on(t.websiteId, t.menuId, t.categoryId),
  ],
);
