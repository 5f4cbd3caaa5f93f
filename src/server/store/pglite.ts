import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockDirectory } from './dir-lock';
import { requestScoped } from './request-transaction';
import { migrationsFolder, type Db, type Initialize, type Store } from './store';
import * as schema from './schema';

/**
 * The extensions the migrations create (PGlite must be given their code when it starts), and a
 * buffer cache of 32 MB instead of PostgreSQL's 128: the embedded database lives inside this
 * process, its files are in the operating system's cache anyway, and the difference is ~120 MB
 * of resident memory (366 → 247 MB measured). Written into the data directory on every start.
 */
export const pgliteOptions = { extensions: { pg_trgm }, postgresqlconf: ['shared_buffers=32MB'] };

/**
 * drizzle hands PGlite its parsers (dates stay text) with every query, and PGlite then copies its
 * own 376 (one per array type of the schema) into a new object for each: a trivial query took
 * 0.44 ms instead of 0.11, and a third of the fuzz suite's time on PGlite went there. drizzle's
 * parsers are the same for every query and nothing else queries this client, so they go into the
 * client's own, and each query goes without them, in a transaction as outside one.
 */
function parsersOnce(client: PGlite): PGlite {
  type Queryable = Pick<PGlite, 'query'>;
  let merged = false;
  const lighten = <T extends Queryable>(target: T): T => {
    const query = target.query.bind(target);
    target.query = ((text, params, options) => {
      if (!options?.parsers) return query(text, params, options);
      if (!merged) Object.assign(client.parsers, options.parsers);
      merged = true;
      return query(text, params, { ...options, parsers: undefined });
    }) as T['query'];
    return target;
  };
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) => transaction((tx) => callback(lighten(tx)));
  return lighten(client);
}

export async function prepareDb(client: PGlite, initialize: Initialize | null): Promise<Db> {
  const db = requestScoped(drizzle({ client: parsersOnce(client), schema }) as unknown as Db);
  await migrate(db as never, { migrationsFolder });
  if (initialize) await initialize(db);
  return db;
}

export async function openPglite(dataDir: string | null, initialize: Initialize): Promise<Store> {
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
    // In this process, on its one connection: nothing to lose on the way.
    listen: (channel, onMessage) => client.listen(channel, onMessage),
    close: async () => {
      await client.close();
      await release();
    },
  };
}

/**
 * Where the built server finds a database migrated at build time (vite.server.config.ts): a new
 * data directory starts from it in ~1 s instead of running PostgreSQL's initdb (~4 s) and every
 * migration. Run from the sources, there is none and a new directory is made from nothing.
 */
export const INITIAL_IMAGE = 'pglite-initial.tar.gz';

/**
 * A new database with every migration applied, as a data directory's tarball: the build's image
 * (gzipped) and the tests' (uncompressed: it loads faster, and lives only in a temporary
 * directory). Without PostgreSQL's two template databases, which nothing here uses (no database is
 * ever created), the image is a third smaller and a PGlite starts from it in ~60 % of the time.
 */
export async function migratedDataDir(compression: 'gzip' | 'none'): Promise<Blob> {
  const client = await PGlite.create(pgliteOptions);
  try {
    await prepareDb(client, null);
    await client.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    await client.exec('DROP DATABASE template0');
    await client.exec('DROP DATABASE template1');
    await client.exec('CHECKPOINT');
    return await client.dumpDataDir(compression);
  } finally {
    await client.close();
  }
}

/** The migrated database the build left beside this module; null without one. */
async function builtImage(): Promise<Blob | null> {
  const path = fileURLToPath(new URL(`./${INITIAL_IMAGE}`, import.meta.url));
  return existsSync(path) ? new Blob([await readFile(path)]) : null;
}

/**
 * A new data directory is built under a temporary name and renamed into place only when it is
 * migrated and initialized, so a process killed halfway leaves nothing the next start trips on.
 * It starts as the build's migrated image where there is one; migrating it then applies nothing.
 */
async function createPgliteDir(dataDir: string, initialize: Initialize): Promise<void> {
  const parent = dirname(dataDir);
  const prefix = `${basename(dataDir)}.init-`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(prefix)) await rm(join(parent, entry), { recursive: true, force: true });
  }
  const staging = join(parent, `${prefix}${process.pid}-${Date.now()}`);
  const image = await builtImage();
  const client = await PGlite.create(staging, image ? { ...pgliteOptions, loadDataDir: image } : pgliteOptions);
  try {
    await prepareDb(client, initialize);
  } finally {
    await client.close();
  }
  await rename(staging, dataDir);
}
