import { z } from 'zod/mini';
import { messages } from '../messages';
import { defineAction, WebsiteParams } from '../action';
import { defineResource } from '../resource';
import { LanguageCode, LanguageContent } from './catalogs';
import { ContentStatus } from './cms';
import { Cents, DEFAULT_CURRENCY } from './services';

// A restaurant's menus (spec §7 Gastro menus, under /api/cms/gastro-menus): a menu has categories
// and items in the order a person sets (ADR 012); allergens belong to the website, so every menu
// of one restaurant shares one legend. Spec §3: gastro entities carry `id` from `_id`.
//
// The spec's own paths name either a website or a menu where the path has one id
// (`/gastro-menus/{websiteId}` lists, `/gastro-menus/{menuId}` is a menu); a child named by its own
// id (`/categories/{categoryId}`, `/items/{itemId}`, `/allergens/{allergenId}`) finds its website
// through its row (policy.ts), and calls that make rows name the website or the menu they make
// them in (`/{websiteId}/allergens/default`, `/{menuId}/items`).

const required = messages.required.id;
const tooLong = messages.tooLong.id;
const invalid = messages.invalidValue.id;

const text = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, tooLong)), '');
const Name = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(200, tooLong));
const Reference = z._default(z.nullable(z.uuid()), null);

/** Spec §3: upper-cased; the client leaves it out when empty. Null: the allergen has no letter. */
export const AllergenIdentifier = z._default(
  z.nullable(z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9]{1,3}$/, messages.allergenIdentifierFormat.id))),
  null,
);
const Currency = z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z]{3}$/, invalid));

const gastroMessages = {
  menu: { one: /*i18n*/ { id: 'resource.gastroMenu', message: 'food menu' }, other: /*i18n*/ { id: 'resource.gastroMenus', message: 'food menus' } },
  category: { one: /*i18n*/ { id: 'resource.gastroCategory', message: 'menu category' }, other: /*i18n*/ { id: 'resource.gastroCategories', message: 'menu categories' } },
  allergen: { one: /*i18n*/ { id: 'resource.allergen', message: 'allergen' }, other: /*i18n*/ { id: 'resource.allergens', message: 'allergens' } },
  item: { one: /*i18n*/ { id: 'resource.gastroItem', message: 'dish' }, other: /*i18n*/ { id: 'resource.gastroItems', message: 'dishes' } },
};

export const gastroMenus = defineResource({
  name: 'gastroMenus',
  label: gastroMessages.menu,
  scope: 'website',
  module: 'gastro',
  paths: { list: '/api/cms/gastro-menus/:websiteId', item: '/api/cms/gastro-menus/:menuId', stats: '/api/cms/gastro-menus/:websiteId/stats' },
  preview: { kind: 'gastroMenu' },
  title: 'name',
  fields: {
    name: Name,
    description: text(1000),
    /** Only published menus reach the website (the delivery API). */
    status: z._default(ContentStatus, 'draft'),
    /** The language the menu is written in; allergen names follow it. */
    language: z._default(LanguageCode, 'de'),
  },
  computed: { id: z.uuid() },
  filters: { status: ContentStatus, language: z.string() },
  search: ['name', 'description'],
  sort: ['name', 'createdAt', 'updatedAt'],
});

export const gastroCategories = defineResource({
  name: 'gastroCategories',
  label: gastroMessages.category,
  scope: 'website',
  module: 'gastro',
  parent: { param: 'menuId', resource: 'gastroMenus' },
  order: { path: '/api/cms/gastro-menus/:menuId/categories/order', field: 'categories', failed: messages.categoryOrderFailed },
  paths: { list: '/api/cms/gastro-menus/:menuId/categories', item: '/api/cms/gastro-menus/categories/:categoryId' },
  title: 'name',
  fields: { name: Name, description: text(500) },
  computed: { id: z.uuid(), menuId: z.uuid(), position: z.int() },
  filters: {},
  search: ['name'],
  sort: ['position'],
});

export const gastroAllergens = defineResource({
  name: 'gastroAllergens',
  label: gastroMessages.allergen,
  scope: 'website',
  module: 'gastro',
  paths: { list: '/api/cms/gastro-menus/:websiteId/allergens', item: '/api/cms/gastro-menus/allergens/:allergenId' },
  title: 'name',
  fields: {
    identifier: AllergenIdentifier,
    name: Name,
    /** The name in other languages (`{ de: { name } }`); a menu in a language without one shows `name`. */
    content: z._default(LanguageContent, {}),
  },
  computed: { id: z.uuid() },
  filters: {},
  search: ['identifier', 'name'],
  sort: ['identifier', 'name', 'createdAt'],
  unique: ['identifier'],
});

export const gastroItems = defineResource({
  name: 'gastroItems',
  label: gastroMessages.item,
  scope: 'website',
  module: 'gastro',
  parent: { param: 'menuId', resource: 'gastroMenus' },
  order: { path: '/api/cms/gastro-menus/:menuId/items/order', field: 'items', failed: messages.itemOrderFailed },
  paths: { list: '/api/cms/gastro-menus/:menuId/items', item: '/api/cms/gastro-menus/items/:itemId' },
  title: 'name',
  fields: {
    name: Name,
    description: text(1000),
    /** In cents of `currency`: money is never a float. */
    price: z._default(Cents, 0),
    currency: z._default(Currency, DEFAULT_CURRENCY),
    categoryId: Reference,
    /** Allergens of the website; `POST …/items/cleanup-allergens` drops ids whose allergen is gone. */
    allergenIds: z._default(z.array(z.uuid()).check(z.maxLength(40, tooLong)), []),
    available: z._default(z.boolean(), true),
    mediaId: Reference,
  },
  computed: { id: z.uuid(), menuId: z.uuid(), position: z.int(), thumbUrl: z.optional(z.nullable(z.string())) },
  filters: { categoryId: z.uuid(), available: z.stringbool() },
  search: ['name', 'description'],
  sort: ['position', 'name', 'price', 'updatedAt'],
  // allergenIds too: a dish made offline with allergens made offline is sent after them.
  references: { categoryId: 'gastroCategories', mediaId: 'media', allergenIds: 'gastroAllergens' },
});

/**
 * The 14 allergens of Regulation (EU) No 1169/2011 Annex II with the letters Austrian menus use
 * (Codex-Empfehlung): `POST …/allergens/default` makes those a website lacks, by letter.
 */
export const DEFAULT_ALLERGENS: readonly { identifier: string; en: string; de: string }[] = [
  { identifier: 'A', en: 'Cereals containing gluten', de: 'Glutenhaltiges Getreide' },
  { identifier: 'B', en: 'Crustaceans', de: 'Krebstiere' },
  { identifier: 'C', en: 'Eggs', de: 'Eier' },
  { identifier: 'D', en: 'Fish', de: 'Fisch' },
  { identifier: 'E', en: 'Peanuts', de: 'Erdnüsse' },
  { identifier: 'F', en: 'Soybeans', de: 'Soja' },
  { identifier: 'G', en: 'Milk and lactose', de: 'Milch und Laktose' },
  { identifier: 'H', en: 'Nuts', de: 'Schalenfrüchte' },
  { identifier: 'L', en: 'Celery', de: 'Sellerie' },
  { identifier: 'M', en: 'Mustard', de: 'Senf' },
  { identifier: 'N', en: 'Sesame seeds', de: 'Sesamsamen' },
  { identifier: 'O', en: 'Sulphur dioxide and sulphites', de: 'Schwefeldioxid und Sulfite' },
  { identifier: 'P', en: 'Lupin', de: 'Lupinen' },
  { identifier: 'R', en: 'Molluscs', de: 'Weichtiere' },
];

/** The calls of spec §7 beyond CRUD: they name the website the rows are made or cleaned in. */
export const loadDefaultAllergens = defineAction({
  name: 'loadDefaultAllergens',
  method: 'POST',
  path: '/api/cms/gastro-menus/:websiteId/allergens/default',
  policy: gastroAllergens.access.create,
  summary: 'Adds the 14 allergens of Regulation (EU) No 1169/2011 Annex II the website lacks and answers its whole legend.',
  params: WebsiteParams,
  answer: z.array(gastroAllergens.entity),
  failed: messages.defaultAllergensFailed,
  // Not queueable: offline, the page makes the missing ones as creates, which its lists show at once.
});

/** Answers how many dishes it changed, and those dishes as they are now (for the client's cache). */
export const cleanupAllergens = defineAction({
  name: 'cleanupAllergens',
  method: 'POST',
  path: '/api/cms/gastro-menus/:websiteId/items/cleanup-allergens',
  policy: gastroItems.access.update,
  summary: 'Drops from the website’s dishes every allergen that is no allergen of the website any more.',
  params: WebsiteParams,
  answer: z.object({ changed: z.int(), items: z.array(gastroItems.entity) }),
  failed: messages.cleanupAllergensFailed,
  queueable: { label: /*i18n*/ { id: 'gastro.cleanupAllergens', message: 'Clean up allergens' } },
});
