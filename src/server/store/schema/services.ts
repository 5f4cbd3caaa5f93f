import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Prices, ServiceFeature, ServiceModule } from '../../../contract/resources/services';
import { alphabetical } from './collation';
import { entityColumns } from './columns';

export const serviceType = pgEnum('service_type', ['package', 'addon', 'hosting', 'care']);

/**
 * A service a website can be composed of (spec §7 "Other"), with its features and CMS modules and
 * a price per partner type for each, in cents. Features and modules live in the row (jsonb): they
 * are read and written with it, never on their own, and a website refers to them by item id.
 */
export const services = pgTable(
  'services',
  {
    ...entityColumns,
    name: text('name').notNull(),
    content: jsonb('content').$type<Record<string, { name: string }>>().notNull().default({}),
    description: text('description').notNull().default(''),
    type: serviceType('type').notNull().default('package'),
    prices: jsonb('prices').$type<Prices>().notNull(),
    currency: text('currency').notNull().default('EUR'),
    features: jsonb('features').$type<ServiceFeature[]>().notNull().default([]),
    modules: jsonb('modules').$type<ServiceModule[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    // "order" is an SQL keyword; the column says what it is.
    order: integer('sort_order').notNull().default(0),
  },
  (t) => [
    uniqueIndex('services_name_key').on(sql`lower(${t.name})`),
    index('services_name_idx').on(alphabetical(t.name), sql`id`),
    index('services_order_idx').on(t.order, sql`id`),
    index('services_type_idx').on(t.type),
    // The standard price is what every other partner type falls back to: it is always there.
    check('services_prices_standard', sql`jsonb_typeof(${t.prices} -> 'standard') = 'number'`),
  ],
);
