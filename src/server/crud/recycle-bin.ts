import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { recycleBinMessages } from '../../contract/resources/recycle-bin';
import { uuidv7 } from '../../contract/uuid';
import { HttpError } from '../http/errors';
import { PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, pgError } from '../store/pg-errors';
import type { RegisteredEntries, ResourceContext } from './context';
import type { Row, Tx, Values } from './types';

// The recycle bin (issue 20, ADR 025): a delete keeps its record in its revisions (migration 0014),
// so the bin needs only a row naming the delete's transaction; a restore inserts again what that
// transaction deleted, as the revisions hold it.

/** The columns a row cannot be stored without, as the database names them. */
const requiredColumns = (table: PgTable) =>
  Object.values(getTableColumns(table) as Record<string, PgColumn>)
    .filter((column) => column.notNull)
    .map((column) => column.name);

/**
 * Puts a record the generic delete just removed into the bin, in the delete's transaction: when its
 * table keeps revisions and its delete revision holds every column it cannot be stored without (a
 * secret kept out of revisions, an account's password hash or an API key's hash, cannot come back).
 * `children` counts the other records its delete took along (cascaded deletes). Answers whether it kept the record.
 */
export async function intoRecycleBin({ resource, table, tableName, clock }: ResourceContext, tx: Tx, row: Row): Promise<boolean> {
  const title = row[resource.title];
  const websiteId = resource.scope === 'website' ? (row.websiteId as string) : null;
  const at = clock().toISOString();
  const kept = await tx.execute(sql`
    insert into recycle_bin (id, website_id, table_name, record_id, resource, title, tx, actor_name, children, created_at, updated_at)
    select ${uuidv7()}, ${websiteId}, r.table_name, r.record_id, ${resource.name}, ${typeof title === 'string' ? title : ''}, r.tx, r.actor_name,
      (select count(*) from revisions c where c.tx = r.tx and c.action = 'delete' and c.id <> r.id), ${at}::timestamptz, ${at}::timestamptz
    from revisions r
    where r.tx = txid_current() and r.table_name = ${tableName} and r.record_id = ${row.id} and r.action = 'delete'
      and jsonb_exists_all(r."values", ${`{${requiredColumns(table).join(',')}}`}::text[])
    returning id`);
  return (kept as unknown as { rows: unknown[] }).rows.length > 0;
}

type Revised = { table_name: string; record_id: string; action: string; values: Values; previous: Values | null };

/** A row to insert again: its table, and its values as they were before the delete's transaction. */
interface Pending {
  table: string;
  id: string;
  values: Values;
  /** The foreign key that refused it last. */
  refusedBy?: string;
}

/**
 * Inserts again the records a delete's transaction removed, as their revisions hold them, keeping
 * ids and positions: a record the same transaction changed first (a dish whose category an ON
 * DELETE SET NULL emptied) as it was before it. Parents come before children by retrying what a
 * foreign key refused while anything else got in; an optional reference to a record gone since is
 * then emptied, as its delete would have. Changes the transaction made to records it did not delete
 * (those SET NULLs, an allergen dropped from dishes) are undone where nothing changed them since.
 * Runs in the request's transaction: a refusal leaves nothing. Answers how many records came back.
 */
export async function restoreTransaction(entries: RegisteredEntries, db: Tx, request: FastifyRequest, txid: number): Promise<number> {
  const revised = (
    (await db.execute(sql`select table_name, record_id, action, "values", previous from revisions where tx = ${txid} order by created_at, id`)) as unknown as {
      rows: Revised[];
    }
  ).rows;
  const key = (revision: Pick<Revised, 'table_name' | 'record_id'>) => `${revision.table_name}/${revision.record_id}`;
  const deleted = new Set(revised.filter((revision) => revision.action === 'delete').map(key));
  // Each record's state before the transaction: its first revision in it (a change's values with the old ones laid over).
  const before = new Map<string, Revised>();
  for (const revision of revised) if (!before.has(key(revision))) before.set(key(revision), revision);
  const stateOf = (revision: Revised): Values => (revision.action === 'update' ? { ...revision.values, ...revision.previous } : revision.values);
  let pending: Pending[] = [...before.entries()]
    .filter(([name, first]) => deleted.has(name) && first.action !== 'create')
    .map(([, first]) => ({ table: first.table_name, id: first.record_id, values: stateOf(first) }));
  const tables = new Map([...entries.values()].flat().map((context) => [context.tableName, context.table]));
  let restored = 0;
  let emptied = false;
  while (pending.length > 0) {
    const refused: Pending[] = [];
    for (const row of pending) {
      const outcome = await insertAgain(db, row);
      if (outcome === 'inserted') restored++;
      else if (outcome === 'taken') throw new HttpError(409, { ...recycleBinMessages.taken, values: { item: nounOf(entries, row.table, row.values, request) } });
      else if (outcome !== 'impossible') refused.push({ ...row, refusedBy: outcome.refusedBy });
    }
    if (refused.length < pending.length) {
      pending = refused;
      continue;
    }
    // Nothing got in: an optional reference to a record gone since is emptied, once; a required one means its parent is gone.
    const optional = emptied ? [] : refused.map((row) => withoutGoneReferences(tables.get(row.table), row)).filter((row) => row !== null);
    if (optional.length === 0) throw parentGone(entries, tables, request, refused[0]!);
    emptied = true;
    pending = refused.map((row) => optional.find((one) => one.table === row.table && one.id === row.id) ?? row);
  }
  // What the transaction changed of records it left (a SET NULL, a hook's cleanup), back as it was, where unchanged since.
  for (const revision of revised) {
    if (revision.action !== 'update' || deleted.has(key(revision)) || !revision.previous) continue;
    const columns = Object.keys(revision.previous);
    if (columns.length === 0) continue;
    const table = sql.identifier(revision.table_name);
    const set = sql.join(
      columns.map((column) => sql`${sql.identifier(column)} = (jsonb_populate_record(null::${table}, ${JSON.stringify(revision.previous)}::jsonb)).${sql.identifier(column)}`),
      sql`, `,
    );
    const unchanged = sql.join(
      columns.map((column) => sql`${sql.identifier(column)} is not distinct from (jsonb_populate_record(null::${table}, ${JSON.stringify(revision.values)}::jsonb)).${sql.identifier(column)}`),
      sql` and `,
    );
    await db.transaction(async (savepoint) => {
      await savepoint.execute(sql`update ${table} set ${set}, version = version + 1, updated_at = now() where id = ${revision.record_id} and ${unchanged}`);
    }).catch((err: unknown) => {
      // A reference that cannot be set back (its record is gone for good) stays empty.
      if (pgError(err)?.code !== PG_FOREIGN_KEY_VIOLATION) throw err;
    });
  }
  return restored;
}

/** One insert under a savepoint: in, refused by a foreign key (its parent may come later), or impossible (a column it needs was never kept). */
async function insertAgain(db: Tx, row: Pending): Promise<'inserted' | 'impossible' | 'taken' | { refusedBy: string }> {
  const table = sql.identifier(row.table);
  try {
    await db.transaction(async (savepoint) => {
      await savepoint.execute(sql`insert into ${table} select * from jsonb_populate_record(null::${table}, ${JSON.stringify(row.values)}::jsonb)`);
    });
    return 'inserted';
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === PG_FOREIGN_KEY_VIOLATION) return { refusedBy: pg.constraint ?? '' };
    if (pg?.code === PG_UNIQUE_VIOLATION) return 'taken';
    // 23502: a NOT NULL column the revisions kept out (a child's secret): that record cannot come back.
    if (pg?.code === '23502') return 'impossible';
    throw err;
  }
}

/** The row with the optional columns of the ON DELETE SET NULL key that refused it emptied; null when that key is no such one. */
function withoutGoneReferences(table: PgTable | undefined, row: Pending): Pending | null {
  const key = table && getTableConfig(table).foreignKeys.find((one) => one.getName() === row.refusedBy);
  if (!key || key.onDelete !== 'set null') return null;
  const emptied = key
    .reference()
    .columns.filter((column) => !column.notNull)
    .map((column) => column.name);
  if (emptied.length === 0) return null;
  return { ...row, values: { ...row.values, ...Object.fromEntries(emptied.map((name) => [name, null])) } };
}

/** A record's noun, as its entry names it, in the request's language. */
function nounOf(entries: RegisteredEntries, table: string, values: Values, request: FastifyRequest): string {
  const label = entries.get(table)?.find((context) => context.owns(values))?.resource.label.one;
  return request.t(label ?? recycleBinMessages.record);
}

/** The 409 of a record whose parent (or a record it needs) is gone: named by that record's noun. */
function parentGone(entries: RegisteredEntries, tables: Map<string, PgTable>, request: FastifyRequest, row: Pending): HttpError {
  const table = tables.get(row.table);
  const key = table && getTableConfig(table).foreignKeys.find((one) => one.getName() === row.refusedBy);
  const target = key && getTableName(key.reference().foreignTable);
  const all = [...entries.values()].flat();
  const own = entries.get(row.table)?.find((context) => context.owns(row.values));
  const parentName = own?.resource.parent?.resource;
  const noun = (target ? entries.get(target)?.[0]?.resource.label.one : undefined) ?? (parentName ? all.find((context) => context.resource.name === parentName)?.resource.label.one : undefined);
  const item = request.t(noun ?? recycleBinMessages.record);
  return new HttpError(409, { ...recycleBinMessages.parentGone, values: { item } });
}
