import type { StoreConfig } from '../config';
import type { Initialize, Store } from './store';

export type { Db, Initialize, Store, StoreKind } from './store';

/**
 * Opens the configured store, migrated and initialized. Each driver is loaded only when it is the
 * one configured: a server on PostgreSQL never loads PGlite's WebAssembly, nor PGlite the pg client.
 */
export async function openStore(config: StoreConfig, initialize: Initialize): Promise<Store> {
  if (config.kind === 'postgres') return (await import('./postgres')).openPostgres(config.url, initialize);
  return (await import('./pglite')).openPglite(config.dataDir, initialize);
}
