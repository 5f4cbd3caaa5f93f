import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { fileURLToPath } from 'node:url';
import type { StoreConfig } from '../config';
import type * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type StoreKind = StoreConfig['kind'];

/** The database behind the server, whichever engine holds it. */
export interface Store {
  kind: StoreKind;
  db: Db;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /**
   * Hears NOTIFY on `channel` (live/changes.ts): what other transactions committed, on any server
   * of this database. `onGap` is told when some may have been missed (a listening connection lost
   * and made again). Resolves with how to stop.
   */
  listen(channel: string, onMessage: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Runs once per store, after migrations, while no other instance can initialize it. */
export type Initialize = (db: Db) => Promise<void>;

/** Beside the code that reads it: in src/server/store from source, in dist/server from the build. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
