import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client, Pool } from 'pg';
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
    listen: (channel, onMessage, onGap) => listenOn(url, channel, onMessage, onGap),
    close: () => pool.end(),
  };
}

const RELISTEN_MS = 1000;

/**
 * LISTEN on a connection of its own (a pooled one goes back to the pool and stops hearing): when
 * it is lost (the database restarted), it is made again every second until it is back, and the
 * listener is told a gap may have opened meanwhile.
 */
async function listenOn(url: string, channel: string, onMessage: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>> {
  let current: Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (stopped) return;
    current = null;
    // A failed attempt may both reject and end its connection: one retry, not two.
    clearTimeout(retry);
    retry = setTimeout(() => void connect().then(onGap, again), RELISTEN_MS);
    retry.unref();
  };
  async function connect() {
    const client = new Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onMessage(message.payload);
    });
    // An 'error' without a listener would end the process; the 'end' that follows starts again.
    client.on('error', () => {});
    client.on('end', again);
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    current = client;
  }
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end();
  };
}

