import { and, eq } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { demoCatalogs, demoOwner } from '../src/server/store/demo';
import type { Store } from '../src/server/store/open';
import { gastroMenus, websites } from '../src/server/store/schema';
import { keepKey } from '../tests/support/principals';
import { oursAgainstBare } from './bare';
import { load, medianRound, type LoadResult } from './load';

/**
 * The delivery API as the internet reads it: the demo restaurant's food menu, its page list and a
 * page by slug, on PostgreSQL, with the website's key; ours against a bare Fastify + pg handler
 * that looks the key up and reads the same rows with the same SQL, with no validation, policy,
 * envelope schema or ETag. And ours again with If-None-Match: what an unchanged answer costs.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The floor: the key's website, then the rows each answer is made of. */
function bareDelivery(app: FastifyInstance, pool: Pool) {
  const websiteOf = async (key: unknown) =>
    (await pool.query('select website_id from api_keys where key_hash = $1 and is_active', [sha256(String(key))])).rows[0]?.website_id as string | undefined;

  app.get('/api/public/gastro-menus/:menuId', async (request, reply) => {
    const site = await websiteOf(request.headers['x-api-key']);
    if (!site) return reply.code(401).send({ success: false });
    const { menuId } = request.params as { menuId: string };
    const menu = (await pool.query(`select id, name, description, language from gastro_menus where website_id = $1 and status = 'published' and id = $2`, [site, menuId])).rows[0];
    if (!menu) return reply.code(404).send({ success: false });
    const [categories, dishes, allergens] = await Promise.all([
      pool.query('select id, name, description from gastro_categories where website_id = $1 and menu_id = $2 order by position, id', [site, menuId]),
      pool.query(
        `select i.id, i.category_id, i.name, i.description, i.price, i.currency, i.available, i.allergen_ids, m.storage_key, m.thumb_key
         from gastro_items i left join media m on m.id = i.media_id and m.website_id = i.website_id
         where i.website_id = $1 and i.menu_id = $2 order by i.position, i.id`,
        [site, menuId],
      ),
      pool.query('select id, identifier, name from gastro_allergens where website_id = $1 order by identifier, name, id', [site]),
    ]);
    const items = (categoryId: string | null) =>
      dishes.rows
        .filter((dish) => dish.category_id === categoryId)
        .map((dish) => ({ id: dish.id, name: dish.name, description: dish.description, price: dish.price, currency: dish.currency, available: dish.available, allergens: dish.allergen_ids, image: dish.storage_key && { url: `/api/files/${dish.storage_key}` } }));
    return {
      success: true,
      data: { ...menu, categories: categories.rows.map((category) => ({ ...category, items: items(category.id) })), items: items(null), allergens: allergens.rows },
    };
  });

  app.get('/api/public/pages', async (request, reply) => {
    const site = await websiteOf(request.headers['x-api-key']);
    if (!site) return reply.code(401).send({ success: false });
    const where = `website_id = $1 and status = 'published'`;
    const [rows, count] = await Promise.all([
      pool.query(`select id, title, slug, language, meta_title, meta_description, sort_order as "order", updated_at from cms_pages where ${where} order by sort_order, title, id limit 10 offset 0`, [site]),
      pool.query(`select count(*)::int as n from cms_pages where ${where}`, [site]),
    ]);
    const totalItems = count.rows[0].n as number;
    return { success: true, data: rows.rows, pagination: { currentPage: 1, totalPages: Math.max(1, Math.ceil(totalItems / 10)), totalItems, itemsPerPage: 10 } };
  });

  // The least a 304 can be: the key looked up (as ours does, from memory), the tag compared, headers and no body.
  const keys = new Map<string, string | undefined>();
  app.get('/bare-304/*', async (request, reply) => {
    const key = String(request.headers['x-api-key']);
    const site = keys.get(key) ?? (await websiteOf(key));
    keys.set(key, site);
    if (!site) return reply.code(401).send({ success: false });
    return reply.code(304).header('etag', String(request.headers['if-none-match'])).header('cache-control', 'public, max-age=30').send();
  });

  app.get('/api/public/pages/:slug', async (request, reply) => {
    const site = await websiteOf(request.headers['x-api-key']);
    if (!site) return reply.code(401).send({ success: false });
    const { slug } = request.params as { slug: string };
    const page = (
      await pool.query(
        `select id, title, slug, language, meta_title, meta_description, sort_order as "order", updated_at, content from cms_pages
         where website_id = $1 and status = 'published' and lower(slug) = $2 order by created_at, id limit 1`,
        [site, slug.toLowerCase()],
      )
    ).rows[0];
    return page ? { success: true, data: page } : reply.code(404).send({ success: false });
  });
}

export interface DeliveryFigure {
  /** What is read: the food menu, the page list, a page by slug. */
  what: string;
  ours: LoadResult;
  bare: LoadResult;
  /** Ours, asked with the ETag of its last answer: every answer a 304. */
  unchanged: LoadResult;
  /** The bare server's 304 with nothing read: what the load generator and HTTP allow on this machine. */
  bare304: LoadResult;
}

/** The demo restaurant of a first start, and a key of its website. */
async function demoWithKey(store: Store) {
  await store.db.transaction(async (tx) => {
    await demoCatalogs(tx as never);
    await demoOwner(tx as never, 'bench-password');
  });
  const [site] = await store.db.select({ id: websites.id }).from(websites).where(eq(websites.name, 'Trattoria Demo'));
  const [menu] = await store.db
    .select({ id: gastroMenus.id })
    .from(gastroMenus)
    .where(and(eq(gastroMenus.websiteId, site!.id), eq(gastroMenus.status, 'published')));
  const key = `skp_${randomBytes(24).toString('base64url')}`;
  await keepKey(store, { website: site!.id, key });
  return { key, menuId: menu!.id };
}

export async function benchDelivery({ seconds = 5, concurrency = 16, rounds = 3 } = {}): Promise<DeliveryFigure[]> {
  return oursAgainstBare(demoWithKey, bareDelivery, async ({ ours, bare }, { key, menuId }) => {
    const headers = { 'x-api-key': key, accept: 'application/json' };
    const reads = [
      { what: 'food menu', path: `/api/public/gastro-menus/${menuId}` },
      { what: 'page list', path: '/api/public/pages' },
      { what: 'page by slug', path: '/api/public/pages/about' },
    ];
    const figures: DeliveryFigure[] = [];
    for (const { what, path } of reads) {
      const first = await fetch(new URL(path, ours), { headers });
      const etag = first.headers.get('etag');
      if (first.status !== 200 || !etag) throw new Error(`${path} answered ${first.status} without an ETag`);
      const held = { ...headers, 'if-none-match': etag };
      // Warm all three (JIT, pg plans, connection pools) before anything counts.
      await load(ours, [path], headers, { seconds: 1, concurrency });
      await load(bare, [path], headers, { seconds: 1, concurrency });
      await load(ours, [path], held, { seconds: 1, concurrency, status: 304 });
      const oursRounds: LoadResult[] = [];
      const bareRounds: LoadResult[] = [];
      const unchangedRounds: LoadResult[] = [];
      const bare304Rounds: LoadResult[] = [];
      // Interleaved rounds, the median of each: on a small machine one round alone is noise.
      for (let round = 0; round < rounds; round++) {
        bareRounds.push(await load(bare, [path], headers, { seconds, concurrency }));
        oursRounds.push(await load(ours, [path], headers, { seconds, concurrency }));
        unchangedRounds.push(await load(ours, [path], held, { seconds, concurrency, status: 304 }));
        bare304Rounds.push(await load(bare, [`/bare-304${path}`], held, { seconds, concurrency, status: 304 }));
      }
      figures.push({ what, ours: medianRound(oursRounds), bare: medianRound(bareRounds), unchanged: medianRound(unchangedRounds), bare304: medianRound(bare304Rounds) });
    }
    return figures;
  });
}
