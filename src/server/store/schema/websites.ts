import { index, pgTable, text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { entityColumns } from './columns';
import { users } from './users';

/**
 * A managed website (DESIGN.md §5): its owner and optional partner may do everything with it;
 * team members reach it through their role. The websites module adds the catalog references.
 */
export const websites = pgTable(
  'websites',
  {
    ...entityColumns,
    name: text('name').notNull(),
    domain: text('domain').notNull().default(''),
    ownerId: uuid('owner_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'restrict' }),
    partnerId: uuid('partner_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('websites_owner_idx').on(t.ownerId), index('websites_partner_idx').on(t.partnerId)],
);
