import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * How many rows a large table holds, kept exact by statement triggers (migration 0004:
 * `keep_row_count('table')`), so an unfiltered list's total costs one row instead of a scan of
 * every row. A table without a row here is counted the slow way.
 */
export const rowCounts = pgTable('row_counts', {
  tableName: text('table_name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
