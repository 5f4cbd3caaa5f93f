import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'pg';
import type { StoreConfig } from '../config';
import { lockDirectory } from './dir-lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type StoreKind = StoreConfig['kind'];

export interface Store {
  kind: StoreKind;
  db: Db;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Runs once per store, after migrations, while no other instance can initialize it. */
export type Initialize = (db: Db) => Promise<void>;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any constant works; it only has to be the same for every instance of this product.
const INIT_LOCK = 7_261_100_912;

/** The extensions the migrations create; PGlite must be given their code when it starts. */
export const pgliteOptions = { extensions: { pg_trgm } };

export function openStore(config: StoreConfig, initialize: Initialize): Promise<Store> {
  return config.kind === 'postgres' ? openPostgres(config.url, initialize) : openPglite(config.dataDir, initialize);
}

async function openPostgres(url: string, initialize: Initialize): Promise<Store> {
  const pool = new Pool({ connectionString: url, max: 10 });
  // A pool error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    // Session-level lock: a second instance starting at the same moment waits here, then finds
    // the migrations applied and the store initialized. A killed holder releases it with its socket.
    await client.query('SELECT pg_advisory_lock($1)', [INIT_LOCK]);
    const db = drizzlePg({ client, schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    await initialize(db);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [INIT_LOCK]).catch(() => {});
    client.release();
  }
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    ping: async () => void (await pool.query('SELECT 1')),
    close: () => pool.end(),
  };
}

export async function prepareDb(client: PGlite, initialize: Initialize | null): Promise<Db> {
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  if (initialize) await initialize(db);
  return db;
}

async function openPglite(dataDir: string | null, initialize: Initialize): Promise<Store> {
  if (!dataDir) {
    const client = await PGlite.create(pgliteOptions);
    return pgliteStore(client, await prepareDb(client, initialize));
  }
  await mkdir(dirname(dataDir), { recursive: true });
  const release = await lockDirectory(`${dataDir}.lock`);
  try {
    if (!existsSync(dataDir)) await createPgliteDir(dataDir, initialize);
    const client = await PGlite.create(dataDir, pgliteOptions);
    return pgliteStore(client, await prepareDb(client, initialize), release);
  } catch (err) {
    await release();
    throw err;
  }
}

export function pgliteStore(client: PGlite, db: Db, release: () => Promise<void> = async () => {}): Store {
  return {
    kind: 'pglite',
    db,
    ping: async () => void (await db.execute(sql`SELECT 1`)),
    close: async () => {
      await client.close();
      await release();
    },
  };
}

/**
 * A new data directory is built under a temporary name and renamed into place only when it is
 * migrated and initialized, so a process killed halfway leaves nothing the next start trips on.
 */
async function createPgliteDir(dataDir: string, initialize: Initialize): Promise<void> {
  const parent = dirname(dataDir);
  const prefix = `${basename(dataDir)}.init-`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix)) await rm(join(parent, entry), { recursive: true, force: true });
  }
  const staging = join(parent, `${prefix}${process.pid}-${Date.now()}`);
  const client = await PGlite.create(staging, pgliteOptions);
  try {
    await prepareDb(client, initialize);
  } finally {
    await client.close();
  }
  await rename(staging, dataDir);
}
