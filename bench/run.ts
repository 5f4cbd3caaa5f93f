/**
 * `npm run bench`: every benchmark, each measured as a ratio against a floor in the same run
 * (never as a timed assertion in a test). Needs a PostgreSQL: TEST_DATABASE_URL, else the local one.
 */
import { benchList } from './list';
import { benchOutbox } from './outbox';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

const fmt = (n: number, digits = 1) => n.toFixed(digits);

console.info(`list endpoint at 100,000 rows (search + sort + page + count): 3 interleaved rounds of ${seconds} s per server, 16 concurrent clients, median round`);
const list = await benchList({ seconds });
console.table({
  'Sitekeeper (Fastify + Zod + policy + Drizzle)': { 'req/s': fmt(list.ours.perSecond), 'p50 ms': fmt(list.ours.p50, 2), 'p99 ms': fmt(list.ours.p99, 2), errors: list.ours.errors },
  'bare Fastify + pg, same SQL': { 'req/s': fmt(list.bare.perSecond), 'p50 ms': fmt(list.bare.p50, 2), 'p99 ms': fmt(list.bare.p99, 2), errors: list.bare.errors },
});
console.info(`throughput ratio ours/bare: ${fmt(list.throughputRatio, 2)}   p99 ratio ours/bare: ${fmt(list.p99Ratio, 2)}\n`);

console.info('1,000 mutations queued offline, then replayed by the outbox (the service worker\'s drain) against the server');
const outbox = await benchOutbox();
console.table({
  'enqueue (durable, optimistic)': { ms: fmt(outbox.enqueueMs, 0), 'per mutation ms': fmt(outbox.enqueueMs / outbox.mutations, 2) },
  'replay (drain)': { ms: fmt(outbox.replayMs, 0), 'per mutation ms': fmt(outbox.replayMs / outbox.mutations, 2) },
  'floor: direct sends, no outbox': { ms: fmt(outbox.directMs, 0), 'per mutation ms': fmt(outbox.directMs / outbox.mutations, 2) },
});
console.info(`replay/direct ratio: ${fmt(outbox.replayMs / outbox.directMs, 2)}   rows on the server: ${outbox.onServer} (expected ${outbox.mutations})   left in the outbox: ${outbox.leftInOutbox}`);
if (outbox.onServer !== outbox.mutations || outbox.leftInOutbox !== 0) process.exitCode = 1;
