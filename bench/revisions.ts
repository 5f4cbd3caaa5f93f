import { sql } from 'drizzle-orm';
import type { Store } from '../src/server/store/open';
import { dishApp, onBothStores } from './dish-app';

export interface RevisionBenchResult {
  /** Median latency of one dish update with its revision written by the trigger. */
  withRevision: number;
  /** The same update with the table's revision trigger switched off. */
  without: number;
  updates: number;
  /** The dish's history (its website's activity filtered to it, over `revisionsOfDish`), first page: median ms. */
  historyPage: number;
  /** The menu's dishes (as many as the dish's revisions), first page, as any list screen reads: median ms. */
  listPage: number;
  revisionsOfDish: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Issue 20's cost of history: a dish's price changed over HTTP, one request at a time (what an
 * owner's save is), with its revision and with the table's trigger disabled, in alternating rounds
 * so that both see the same machine. Everything else of the request (policy, If-Match, the held
 * transaction with its actor setting, the answer) is the same in both.
 */
async function measure(store: Store, { rounds, perRound }: { rounds: number; perRound: number }): Promise<RevisionBenchResult> {
  const { app, base, headers, website, menu, dish, setPrice } = await dishApp(store);
  try {
    let version = dish.version;
    const samples = { on: [] as number[], off: [] as number[] };
    const round = async (kind: 'on' | 'off') => {
      await store.db.execute(sql.raw(`alter table gastro_items ${kind === 'on' ? 'enable' : 'disable'} trigger gastro_items_revisions`));
      for (let i = 0; i < perRound; i++) {
        const started = performance.now();
        version = await setPrice(900 + (version % 100), version);
        samples[kind].push(performance.now() - started);
      }
    };
    // A first round of each warms the connection, the prepared statements and the JIT, unmeasured.
    await round('on');
    await round('off');
    samples.on.length = 0;
    samples.off.length = 0;
    for (let r = 0; r < rounds; r++) {
      await round(r % 2 === 0 ? 'on' : 'off');
      await round(r % 2 === 0 ? 'off' : 'on');
    }
    await store.db.execute(sql.raw('alter table gastro_items enable trigger gastro_items_revisions'));

    // The dish now has a long history: its first page against the first page of a list as long (the
    // menu given as many dishes), read alternately.
    const { rows: counted } = (await store.db.execute(sql`select count(*)::int as n from revisions where record_id = ${dish._id}`)) as unknown as { rows: { n: number }[] };
    const revisionsOfDish = counted[0]?.n ?? 0;
    await store.db.execute(sql`
      insert into gastro_items (id, website_id, menu_id, name, price, position)
      select gen_random_uuid(), ${website.id}, ${menu._id}, 'Dish ' || g, 500 + g, g from generate_series(1, ${revisionsOfDish - 1}) g`);
    const read = async (path: string) => {
      const started = performance.now();
      const res = await fetch(base + path, { headers });
      if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const history = `/api/websites/${website.id}/activity?recordId=${dish._id}&page=1&limit=10`;
    const list = `/api/cms/gastro-menus/${menu._id}/items?page=1&limit=10`;
    const reads = { history: [] as number[], list: [] as number[] };
    for (let i = 0; i < perRound; i++) {
      reads.history.push(await read(history));
      reads.list.push(await read(list));
    }
    return { withRevision: median(samples.on), without: median(samples.off), updates: samples.on.length, historyPage: median(reads.history.slice(10)), listPage: median(reads.list.slice(10)), revisionsOfDish };
  } finally {
    await app.close();
  }
}

/** On PostgreSQL (a database of its own) and on the embedded PGlite, as `npm start` runs by default. */
export const benchRevisions = ({ rounds = 6, perRound = 200 } = {}) => onBothStores((store) => measure(store, { rounds, perRound }));
