import { sql } from 'drizzle-orm';
import type { Store } from '../../src/server/store/open';

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

/** Installs the triggers; the function it returns answers the tables changed since it was last called. */
export async function watchChanges(store: Store): Promise<() => Promise<string[]>> {
  const db = store.db;
  // Every table the migrations made, read from the database: a module's new table is watched without a list naming it.
  const found = (await db.execute(
    sql.raw(`select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
             where t.table_schema = current_schema() and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`),
  )) as unknown as { rows: { table_name: string; column_name: string }[] };
  const tables = new Map<string, string[]>();
  for (const { table_name, column_name } of found.rows) tables.set(table_name, [...(tables.get(table_name) ?? []), column_name]);
  await db.execute(sql.raw('create table test_changes (table_name text not null)'));
  await db.execute(sql.raw(`create function test_note_change() returns trigger language plpgsql as $$ begin insert into test_changes values (TG_TABLE_NAME); return null; end $$`));
  for (const [name, all] of tables) {
    const moving = MOVING[name] ?? [];
    if (moving === 'all') continue;
    const columns = all.filter((column) => !moving.includes(column));
    const row = (side: string) => `row(${columns.map((column) => `${side}."${column}"`).join(', ')})`;
    await db.execute(sql.raw(`create trigger test_changes_written after insert or delete on "${name}" for each row execute function test_note_change()`));
    await db.execute(sql.raw(`create trigger test_changes_updated after update on "${name}" for each row when (${row('old')} is distinct from ${row('new')}) execute function test_note_change()`));
  }
  return async () => {
    const result = (await db.execute(sql.raw('delete from test_changes returning table_name'))) as unknown as { rows: { table_name: string }[] };
    return [...new Set(result.rows.map((row) => row.table_name))].toSorted();
  };
}
