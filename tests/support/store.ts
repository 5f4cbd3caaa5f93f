import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openStore, type Initialize, type Store, type StoreKind } from '../../src/server/store/open';
import { pgliteOptions, pgliteStore, prepareDb } from '../../src/server/store/pglite';

/** PGlite always; the real PostgreSQL too when TEST_DATABASE_URL names one (CI sets it). */
export const storeKinds: StoreKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let template: Promise<PGlite> | null = null;

/** Migrating a new PGlite takes seconds; cloning a migrated one takes a fraction of that. */
function migratedTemplate(): Promise<PGlite> {
  template ??= PGlite.create(pgliteOptions).then(async (client) => {
    await prepareDb(client, null);
    return client;
  });
  return template;
}

/** A fresh, empty PostgreSQL database for one test; dropped again by `drop()`. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `sk_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  // A connection the server drops is an 'error' event; unhandled, it would end the process.
  admin.on('error', () => {});
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: base });
      client.on('error', () => {});
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A migrated store of the given kind, initialized by `initialize` (nothing by default). */
export async function createTestStore(kind: StoreKind, initialize: Initialize = async () => {}): Promise<Store> {
  if (kind === 'pglite') {
    const client = (await (await migratedTemplate()).clone()) as PGlite;
    return pgliteStore(client, await prepareDb(client, initialize));
  }
  const database = await createPgDatabase();
  const store = await openStore({ kind: 'postgres', url: database.url }, initialize);
  return {
    ...store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}
