import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { Store } from '../src/server/store/open';
import { tokenFor } from '../tests/support/auth';
import { seedUser } from '../tests/support/users';
import { oursAgainstBare } from './bare';
import { load, medianRound, type LoadResult } from './load';

export const ROWS = 100_000;

/** What a list screen asks: the first page, a search, a deep page, a reversed sort. */
const PATHS = [
  '/api/categories?page=1&limit=10',
  // A tag word: 100 names.
  '/api/categories?page=1&limit=10&search=c4ca42',
  // A number prefix across names: 111 rows, with trigrams every name shares.
  '/api/categories?page=2&limit=10&search=category%20123',
  '/api/categories?page=500&limit=20&sortBy=name&sortOrder=desc',
  // Hex noise in descriptions: a few dozen rows.
  '/api/categories?page=1&limit=10&sortBy=createdAt&sortOrder=desc&search=beef',
];

const SORT_COLUMNS: Record<string, string> = { name: 'name collate "und-x-icu"', createdAt: 'created_at', updatedAt: 'updated_at' };

/**
 * The floor: the same SQL our generic list runs (search on the trigram-indexed columns, sort with
 * the id tie-break, one page, the count: kept in row_counts for the whole table), behind a bare Fastify route and a bare pg pool, with no
 * validation, policy, session lookup or schema serialization.
 */
function bareList(app: FastifyInstance, pool: Pool) {
  app.get('/api/categories', async (request) => {
    const q = request.query as Record<string, string | undefined>;
    const page = Number(q.page ?? 1);
    const limit = Number(q.limit ?? 10);
    const column = SORT_COLUMNS[q.sortBy ?? 'name'] ?? 'name';
    const order = q.sortOrder === 'desc' ? 'desc' : 'asc';
    const params: unknown[] = [];
    let where = '';
    if (q.search) {
      params.push(`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where = 'where (name ilike $1 or description ilike $1)';
    }
    const [rows, count] = await Promise.all([
      pool.query(
        `select id, version, created_at, updated_at, name, description from categories ${where} order by ${column} ${order}, id ${order} limit ${limit} offset ${(page - 1) * limit}`,
        params,
      ),
      where
        ? pool.query(`select count(*)::int as count from categories ${where}`, params)
        : pool.query(`select n::int as count from row_counts where table_name = 'categories'`),
    ]);
    const totalItems = count.rows[0].count as number;
    return {
      success: true,
      data: rows.rows.map((r) => ({
        _id: r.id,
        version: r.version,
        createdAt: r.created_at.toISOString(),
        updatedAt: r.updated_at.toISOString(),
        name: r.name,
        description: r.description,
      })),
      pagination: { currentPage: page, totalPages: Math.ceil(totalItems / limit), totalItems, itemsPerPage: limit },
    };
  });
}

export interface ListBenchResult {
  rows: number;
  /** `concurrency` clients at once, the round with the median throughput. */
  ours: LoadResult;
  bare: LoadResult;
  /** One client at a time: the latency of a request with nothing queued before it. */
  oursSingle: LoadResult;
  bareSingle: LoadResult;
  throughputRatio: number;
  p99Ratio: number;
}

/** 100,000 categories, and an admin's session token. */
async function seed(store: Store): Promise<string> {
  // 100,000 distinct names; each of 1,000 tag words is in 100 names, and descriptions hold hex
  // noise, so a search matches tens to hundreds of rows as on a real catalog.
  await store.db.execute(
    `insert into categories (id, name, description, created_at, updated_at)
     select gen_random_uuid(), 'Category ' || g || ' ' || substr(md5((g % 1000)::text), 1, 6),
            'About ' || md5(g::text), now() - (g || ' seconds')::interval, now()
     from generate_series(1, ${ROWS}) g` as never,
  );
  const admin = await seedUser(store, { type: 'admin', email: 'bench@example.test', username: 'bench', password: 'bench-password' });
  return tokenFor(store, admin.id);
}

export async function benchList({ seconds = 5, concurrency = 16, rounds = 3 } = {}): Promise<ListBenchResult> {
  return oursAgainstBare(seed, bareList, async ({ ours, bare }, token) => {
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    // Warm both (JIT, pg plans, connection pools) before anything counts.
    await load(ours, PATHS, headers, { seconds: 1, concurrency });
    await load(bare, PATHS, headers, { seconds: 1, concurrency });
    // Interleaved rounds, the median of each: on a small machine one round alone is noise.
    const oursRounds: LoadResult[] = [];
    const bareRounds: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      bareRounds.push(await load(bare, PATHS, headers, { seconds, concurrency }));
      oursRounds.push(await load(ours, PATHS, headers, { seconds, concurrency }));
    }
    const oursResult = medianRound(oursRounds);
    const bareResult = medianRound(bareRounds);
    const bareSingle = await load(bare, PATHS, headers, { seconds, concurrency: 1 });
    const oursSingle = await load(ours, PATHS, headers, { seconds, concurrency: 1 });
    return {
      rows: ROWS,
      ours: oursResult,
      bare: bareResult,
      oursSingle,
      bareSingle,
      throughputRatio: oursResult.perSecond / bareResult.perSecond,
      p99Ratio: oursResult.p99 / bareResult.p99,
    };
  });
}
