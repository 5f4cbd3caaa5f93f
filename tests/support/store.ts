import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { openStore, type Initialize, type Store, type StoreKind } from '../../src/server/store/open';
import { pgliteOptions, pgliteStore, prepareDb } from '../../src/server/store/pglite';

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

/** Making and migrating a PGlite takes seconds; starting one from this tarball, a fraction of one. */
export async function migratedPgliteImage(): Promise<Blob> {
  const client = await PGlite.create(pgliteOptions);
  try {
    await prepareDb(client, null);
    // No test makes a database: without PostgreSQL's two templates the image is a third smaller,
    // and a PGlite starts from it in ~60 % of the time (measured 0.3 s instead of 0.5 s).
    await client.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    await client.exec('DROP DATABASE template0');
    await client.exec('DROP DATABASE template1');
    await client.exec('CHECKPOINT');
    // Uncompressed: it starts faster, and the tarball only lives in a temporary directory.
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

let image: Promise<Blob> | null = null;

function pgliteImage(): Promise<Blob> {
  const path = process.env[PGLITE_IMAGE_ENV];
  image ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : migratedPgliteImage();
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

/**
 * A new PostgreSQL database, empty or a copy of `template`; dropped again by `drop()`. A template
 * must have no connection open while it is copied.
 */
export async function createPgDatabase(template?: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `sk_test_${randomBytes(6).toString('hex')}`;
  await onServer(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A migrated store of the given kind, initialized by `initialize` (nothing by default); every call a new one. */
export async function createTestStore(kind: StoreKind, initialize: Initialize = async () => {}): Promise<Store> {
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
