import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { buildApp } from '../src/server/app';
import { openStore, type Store } from '../src/server/store/open';
import { memoryMailer, testAppConfig } from '../tests/support/app';
import { createPgDatabase } from '../tests/support/store';

/**
 * A floor for a server figure: a bare Fastify with the routes `add` gives it, over a bare pg pool,
 * with no validation, policy, session lookup or schema serialization.
 */
async function bareServer(databaseUrl: string, add: (app: FastifyInstance, pool: Pool) => void) {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  // A dropped idle connection is an 'error' event: unhandled, it would end the whole benchmark.
  pool.on('error', (error) => console.warn(`bare pool: ${error.message}`));
  const app = Fastify({ logger: false });
  add(app, pool);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`),
    async close() {
      await app.close();
      await pool.end();
    },
  };
}

/**
 * Our server and a bare one (`add`'s routes) over one fresh PostgreSQL database that `seed` fills
 * first, for `measure`; both closed and the database dropped after, whatever happens.
 */
export async function oursAgainstBare<S, T>(
  seed: (store: Store) => Promise<S>,
  add: (app: FastifyInstance, pool: Pool) => void,
  measure: (servers: { ours: URL; bare: URL }, seeded: S) => Promise<T>,
): Promise<T> {
  const database = await createPgDatabase();
  const store = await openStore({ kind: 'postgres', url: database.url }, async () => {});
  try {
    const seeded = await seed(store);
    // As autovacuum leaves tables at rest: statistics and the visibility map up to date, so it does not start mid-measurement.
    await store.db.execute('vacuum analyze' as never);
    const ours = await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false });
    await ours.listen({ port: 0, host: '127.0.0.1' });
    const bare = await bareServer(database.url, add);
    try {
      return await measure({ ours: new URL(`http://127.0.0.1:${(ours.server.address() as AddressInfo).port}`), bare: bare.url }, seeded);
    } finally {
      await bare.close();
      await ours.close();
    }
  } finally {
    await store.close().catch(() => {});
    await database.drop();
  }
}
