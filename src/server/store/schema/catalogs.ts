import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { entityColumns } from './columns';
import { alphabetical } from './collation';

/**
 * The indexes a catalog needs to list, search and sort 100,000 rows fast on both databases:
 * trigram GIN for `ILIKE '%…%'` on every searched column, b-tree for every sort key.
 */
function catalogIndexes(name: string, t: { name: AnyPgColumn; createdAt: AnyPgColumn; updatedAt: AnyPgColumn }, searched: AnyPgColumn[]) {
  return [
    ...searched.map((column) => index(`${name}_${column.name}_trgm`).using('gin', sql`${column} gin_trgm_ops`)),
    index(`${name}_name_idx`).on(alphabetical(t.name), sql`id`),
    index(`${name}_created_idx`).on(t.createdAt),
    index(`${name}_updated_idx`).on(t.updatedAt),
  ];
}

const namedColumns = {
  ...entityColumns,
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
};

export const categories = pgTable('categories', namedColumns, (t) => [
  uniqueIndex('categories_name_key').on(sql`lower(${t.name})`),
  ...catalogIndexes('categories', t, [t.name, t.description]),
]);

export const subcategories = pgTable(
  'subcategories',
  {
    ...namedColumns,
    // Restrict: a category in use cannot vanish from under its subcategories.
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('subcategories_name_key').on(t.categoryId, sql`lower(${t.name})`),
    index('subcategories_category_idx').on(t.categoryId, alphabetical(t.name)),
    ...catalogIndexes('subcategories', t, [t.name, t.description]),
  ],
);

export const types = pgTable('types', namedColumns, (t) => [
  uniqueIndex('types_name_key').on(sql`lower(${t.name})`),
  ...catalogIndexes('types', t, [t.name, t.description]),
]);

export const technologies = pgTable('technologies', namedColumns, (t) => [
  uniqueIndex('technologies_name_key').on(sql`lower(${t.name})`),
  ...catalogIndexes('technologies', t, [t.name, t.description]),
]);

export const hosting = pgTable('hosting', namedColumns, (t) => [
  uniqueIndex('hosting_name_key').on(sql`lower(${t.name})`),
  ...catalogIndexes('hosting', t, [t.name, t.description]),
]);

export const languages = pgTable(
  'languages',
  {
    ...entityColumns,
    name: text('name').notNull(),
    code: text('code').notNull(),
    content: jsonb('content').$type<Record<string, { name: string }>>().notNull().default({}),
  },
  (t) => [uniqueIndex('languages_code_key').on(sql`lower(${t.code})`), index('languages_code_idx').on(alphabetical(t.code), sql`id`), ...catalogIndexes('languages', t, [t.name, t.code])],
);
