import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import { requestScoped } from './request-transaction';
import { migrationsFolder, type Db, type Initialize, type Store } from './store';
import * as schema from './schema';

// Any constant works; it only has to be the same for every instance of this product.
const INIT_LOCK = 7_261_100_912;

export async function openPostgres(url: string, initialize: Initialize): Promise<Store> {
  const pool = new Pool({ connectionString: url, max: 10 });
  // A pool error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    // Session-level lock: a second instance starting at the same moment waits here, then finds
    // the migrations applied and the store initialized. A killed holder releases it with its socket.
    await client.query('SELECT pg_advisory_lock($1)', [INIT_LOCK]);
    const db = drizzle({ client, schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder });
    await initialize(db);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [INIT_LOCK]).catch(() => {});
    client.release();
  }
  return {
    kind: 'postgres',
    db: requestScoped(drizzle({ client: pool, schema }) as unknown as Db),
    ping: async () => void (await pool.query('SELECT 1')),
    close: () => pool.end(),
  };
}

