import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Text in the order people expect (a, Ä, b, B, …), whatever the database's own collation: PGlite
 * and many PostgreSQL installations run with "C", which puts every capital before "a" and "Ä"
 * after "z". ICU's root collation exists in PGlite and in every PostgreSQL built with ICU.
 * Sorting and its index must use the same expression, so both come from here.
 */
export const alphabetical = (column: AnyPgColumn): SQL => sql`${column} collate "und-x-icu"`;

/** Column types that hold text; an enum, a date or a timestamp read as a string takes no collation. */
const TEXT_TYPES = new Set(['PgText', 'PgVarchar', 'PgChar']);

/** What a list sorts a column by: text alphabetically, anything else by its own order. */
export const sortKey = (column: AnyPgColumn): SQL | AnyPgColumn => (TEXT_TYPES.has(column.columnType) ? alphabetical(column) : column);
