import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { openStore, type Initialize, type Store, type StoreKind } from '../../src/server/store/open';
import { migratedDataDir, pgliteOptions, pgliteStore, prepareDb } from '../../src/server/store/pglite';

/** PGlite always; the real PostgreSQL too when TEST_DATABASE_URL names one (CI sets it). */
export const storeKinds: StoreKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * Where the server tests' global setup (tests/support/migrated-stores.ts) left what it migrated
 * once for the whole run: a PGlite data directory as a tarball, a PostgreSQL template database; the
 * browser tests' global setup leaves the tarball alone. Without them (benchmarks) each process
 * migrates its own.
 */
export const PGLITE_IMAGE_ENV = 'SK_TEST_PGLITE_IMAGE';
export const PG_TEMPLATE_ENV = 'SK_TEST_PG_TEMPLATE';

let image: Promise<Blob> | null = null;

function pgliteImage(): Promise<Blob> {
  const path = process.env[PGLITE_IMAGE_ENV];
  image ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : migratedDataDir('none');
  return image;
}

async function onServer(statement: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const client = new Client({ connectionString: base });
  // A connection the server drops is an 'error' event; unhandled, it would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Names this run's databases (set by the global setup), so its teardown finds every one it left. */
export const RUN_TAG_ENV = 'SK_TEST_RUN';
const DATABASE_PREFIX = 'sk_test_';

/**
 * A new PostgreSQL database, empty or a copy of `template`; dropped again by `drop()`. A template
 * must have no connection open while it is copied.
 */
export async function createPgDatabase(template?: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const tag = process.env[RUN_TAG_ENV];
  const name = `${DATABASE_PREFIX}${tag ? `${tag}_` : ''}${randomBytes(6).toString('hex')}`;
  await onServer(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Drops every database of the run `tag` still there: the ones a worker kept for reuse when it ended. */
export async function dropRunDatabases(tag: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const client = new Client({ connectionString: base });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${DATABASE_PREFIX}${tag}\\_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** A migrated store as it left the template, with what it takes to bring it back there. */
interface Spare {
  store: Store;
  /** The catalog's size: a test that made a table, trigger or function leaves a store that is not reused. */
  catalog: string;
  tables: string[];
  /** The rows the migrations made (settings, counters), as JSON per table. */
  seed: { table: string; rows: string }[];
}

/** Stores closed by earlier tests of this worker, per kind, emptied when they are taken again. */
const spares: Record<StoreKind, Spare[]> = { pglite: [], postgres: [] };

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function catalogOf(store: Store): Promise<string> {
  const [row] = rowsOf<{ size: string }>(
    await store.db.execute(sql.raw(`select concat_ws('/', (select count(*) from pg_class), (select count(*) from pg_trigger), (select count(*) from pg_proc)) as size`)),
  );
  return row!.size;
}

async function spareOf(store: Store): Promise<Spare> {
  const tables = rowsOf<{ name: string }>(await store.db.execute(sql.raw(`select tablename as name from pg_tables where schemaname = current_schema()`))).map(({ name }) => name);
  const seed: Spare['seed'] = [];
  for (const table of tables) {
    const [row] = rowsOf<{ rows: string | null }>(await store.db.execute(sql.raw(`select json_agg(t)::text as rows from "${table}" t`)));
    if (row?.rows) seed.push({ table, rows: row.rows });
  }
  return { store, catalog: await catalogOf(store), tables, seed };
}

/** Back to the template: every row deleted (foreign keys and triggers off meanwhile), the migrations' rows put back. */
async function empty({ store, tables, seed }: Spare): Promise<void> {
  const statements = [
    'set local session_replication_role = replica;',
    ...tables.map((table) => `delete from "${table}";`),
    ...seed.map(({ table, rows }) => `insert into "${table}" select * from json_populate_recordset(null::"${table}", ${`$json$${rows}$json$`});`),
  ];
  await store.db.execute(sql.raw(`do $do$ begin ${statements.join(' ')} end $do$`));
}

async function freshStore(kind: StoreKind, initialize: Initialize): Promise<Store> {
  if (kind === 'pglite') {
    const client = await PGlite.create({ ...pgliteOptions, loadDataDir: await pgliteImage() });
    return pgliteStore(client, await prepareDb(client, initialize));
  }
  const database = await createPgDatabase(process.env[PG_TEMPLATE_ENV]);
  // On a copy of the template the migrations are already applied; openStore finds nothing to do.
  const store = await openStore({ kind: 'postgres', url: database.url }, initialize);
  return {
    ...store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

/**
 * A migrated store of the given kind, initialized by `initialize` (nothing by default); every call a
 * store of its own, empty but for what the migrations made. In a test run (the global setup tagged
 * it), a closed store is not thrown away: the next test of the worker gets it back emptied, which
 * takes milliseconds where loading a PGlite takes half a second and copying a PostgreSQL database a
 * third of one — unless its test changed the schema (a trigger, a table), then it is closed.
 */
export async function createTestStore(kind: StoreKind, initialize: Initialize = async () => {}): Promise<Store> {
  if (!process.env[RUN_TAG_ENV]) return freshStore(kind, initialize);
  let spare = spares[kind].pop();
  if (spare) await empty(spare);
  else spare = await spareOf(await freshStore(kind, async () => {}));
  const taken = spare;
  await initialize(taken.store.db);
  let closed = false;
  return {
    ...taken.store,
    close: async () => {
      if (closed) return;
      closed = true;
      const reusable = await catalogOf(taken.store).then(
        (catalog) => catalog === taken.catalog,
        () => false,
      );
      if (reusable) spares[kind].push(taken);
      else await taken.store.close();
    },
  };
}
