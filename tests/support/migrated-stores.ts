import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/server/store/open';
import { migratedDataDir } from '../../src/server/store/pglite';
import { createPgDatabase, dropRunDatabases, PG_TEMPLATE_ENV, PGLITE_IMAGE_ENV, RUN_TAG_ENV } from './store';

/**
 * Migrates one PGlite and leaves it as a tarball where every PGlite store of this run starts from
 * (PGLITE_IMAGE_ENV); the browser tests' global setup (tests/e2e/global-setup.ts) is this alone.
 * Resolves to its removal.
 */
export async function sharePgliteImage(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'sk-test-image-'));
  const imagePath = join(dir, 'pglite.tar');
  await writeFile(imagePath, new Uint8Array(await (await migratedDataDir('none')).arrayBuffer()));
  process.env[PGLITE_IMAGE_ENV] = imagePath;
  return () => rm(dir, { recursive: true, force: true });
}

/**
 * Global setup of the tests that open stores: migrates one PGlite and, with TEST_DATABASE_URL, one
 * PostgreSQL database, once per run instead of once per test file; every store a test asks for
 * is a copy of them (tests/support/store.ts). The test workers start after this and inherit the
 * environment it sets. Every Vitest project that opens stores names this file; the first migrates
 * for all of them.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env[PGLITE_IMAGE_ENV]) return async () => {};
  const removeImage = await sharePgliteImage();
  // Tags the run: its workers reuse the stores their tests close (tests/support/store.ts), and
  // the databases they still hold at the end are found by this tag and dropped below.
  const tag = randomBytes(4).toString('hex');
  process.env[RUN_TAG_ENV] = tag;

  let template: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  if (process.env.TEST_DATABASE_URL) {
    template = await createPgDatabase();
    const store = await openStore({ kind: 'postgres', url: template.url }, async () => {});
    // Closing the pool ends its connections, so the template can be copied.
    await store.close();
    process.env[PG_TEMPLATE_ENV] = template.name;
  }

  return async () => {
    await dropRunDatabases(tag);
    await template?.drop();
    await removeImage();
  };
}
