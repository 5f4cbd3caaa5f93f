import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Store } from '../../src/server/store/open';
import * as schema from '../../src/server/store/schema';

/*
 * Which tables had a row changed, for the suites that check "a refused request changed nothing":
 * a row trigger on every table of the app's test database notes each insert, delete and real
 * update (one that changed a value) in `test_changes`; a request's own transaction takes its
 * notes with it when it rolls back, so what is left is what was committed. Left out is what
 * changes by design whatever the answer: counters of refused attempts (rate limits, a PIN's
 * wrong tries), stored answers of idempotent requests, a session's last use, and what the
 * contact-form mail sender does on its own schedule.
 */
const MOVING: Readonly<Record<string, readonly string[] | 'all'>> = {
  rate_limits: 'all',
  idempotency_keys: 'all',
  sessions: ['last_seen_at'],
  pin_challenges: ['attempts'],
  contact_submissions: ['mail_status', 'mail_attempts', 'next_attempt_at', 'claimed_until', 'sent_at'],
};

const tables = Object.values(schema).filter((value) => is(value, PgTable)) as PgTable[];

/** Installs the triggers; the function it returns answers the tables changed since it was last called. */
export async function watchChanges(store: Store): Promise<() => Promise<string[]>> {
  const db = store.db;
  await db.execute(sql.raw('create table test_changes (table_name text not null)'));
  await db.execute(sql.raw(`create function test_note_change() returns trigger language plpgsql as $$ begin insert into test_changes values (TG_TABLE_NAME); return null; end $$`));
  for (const table of tables) {
    const name = getTableName(table);
    const moving = MOVING[name] ?? [];
    if (moving === 'all') continue;
    const columns = Object.values(getTableColumns(table))
      .map((column) => column.name)
      .filter((column) => !moving.includes(column));
    const row = (side: string) => `row(${columns.map((column) => `${side}."${column}"`).join(', ')})`;
    await db.execute(sql.raw(`create trigger test_changes_written after insert or delete on "${name}" for each row execute function test_note_change()`));
    await db.execute(sql.raw(`create trigger test_changes_updated after update on "${name}" for each row when (${row('old')} is distinct from ${row('new')}) execute function test_note_change()`));
  }
  return async () => {
    const result = (await db.execute(sql.raw('delete from test_changes returning table_name'))) as unknown as { rows: { table_name: string }[] };
    return [...new Set(result.rows.map((row) => row.table_name))].toSorted();
  };
}
