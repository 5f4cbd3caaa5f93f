// The floor for the server process: Fastify and a pg pool, nothing of ours (bench/startup.ts).
import Fastify from 'fastify';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});
const app = Fastify({ logger: false });
app.get('/api/health', async () => {
  await pool.query('select 1');
  return { success: true, data: { status: 'ok' } };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
