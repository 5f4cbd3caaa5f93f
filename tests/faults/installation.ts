import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreKind } from '../../src/server/store/open';
import { createPgDatabase } from '../support/store';
import { killAll } from './process';

const removals: (() => Promise<void>)[] = [];

/** The environment of one installation: a data directory and, for PostgreSQL, a database of its own. */
export async function installation(kind: StoreKind): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'sk-faults-'));
  removals.push(() => rm(dir, { recursive: true, force: true }));
  if (kind !== 'postgres') return { DATA_DIR: dir };
  const database = await createPgDatabase();
  removals.push(database.drop);
  return { DATA_DIR: dir, DATABASE_URL: database.url };
}

/** For afterEach: kills the servers a test left running and removes its installations. */
export async function removeInstallations(): Promise<void> {
  killAll();
  await Promise.all(removals.splice(0).map((remove) => remove()));
}
