import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/send';
import type { Success } from '../contract/envelope';
import { orderTag } from '../contract/order';
import { boundTo } from '../contract/resource';
import { gastroAllergens, gastroItems, gastroMenus } from '../contract/resources/gastro';
import { initialListQuery } from '../machines/list.machine';
import { clearLocalData, db, type WireRow } from './database';
import { keepList, resourceStore as store } from './device-store';
import { entityKey } from './outbox';
import { drain, type OutboxRequest } from './outbox-drain';

/**
 * Ordered children on this device (ADR 012) with the generic store and outbox, on gastro dishes:
 * a menu of 2,000 in one cached page, and a menu made offline with its dishes, an allergen, an
 * order and an edit, replayed once against an in-memory server that behaves as crud/ does.
 */

const SITE = '0190d6b0-0000-7000-8000-0000000000a1';
const MENU = '0190d6b0-0000-7000-8000-0000000000b1';
const LETTER = '0190d6b0-0000-7000-8000-0000000000c1';
const id = (n: number) => `0190d6b0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const [SOUP, STEAK, CAKE] = [id(1), id(2), id(3)];
const at = '2026-05-01T10:00:00.000Z';

const menus = boundTo(gastroMenus, { websiteId: SITE });
const items = boundTo(gastroItems, { menuId: MENU });
const allergens = boundTo(gastroAllergens, { websiteId: SITE });
const itemsQuery = initialListQuery(items);

const dish = (n: number, fields: Record<string, unknown> = {}): WireRow => ({
  _id: id(n),
  id: id(n),
  version: 1,
  createdAt: at,
  updatedAt: at,
  menuId: MENU,
  position: n,
  name: `Dish ${n}`,
  description: '',
  price: 100 * n,
  currency: 'EUR',
  categoryId: null,
  allergenIds: [],
  available: true,
  mediaId: null,
  ...fields,
});

const ok = (data: unknown): Success<unknown> => ({ success: true, data });

/** A create as crud/ makes it: the client's id, version 1. */
function made(table: Map<string, WireRow>, body: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const row = { ...body, ...fields, _id: String(body._id), id: String(body._id), version: 1, createdAt: at, updatedAt: at } as WireRow;
  table.set(row._id, row);
  return ok(row);
}

/** What crud/ answers for the gastro entries, in memory: ids, versions, positions last, If-Match, the order's tag, Idempotency-Key. */
function gastroServer() {
  const rows = { menus: new Map<string, WireRow>(), allergens: new Map<string, WireRow>(), items: new Map<string, WireRow>() };
  const answered = new Map<string, Success<unknown>>();
  const applied: string[] = [];
  /** The next answer to one of these paths is lost on its way back (a bad connection): the change was made. */
  const lose = new Set<string>();
  const refuse = new Set<string>();
  const order = (menuId: string) =>
    [...rows.items.values()]
      .filter((row) => row.menuId === menuId)
      .toSorted((a, b) => Number(a.position) - Number(b.position))
      .map((row) => row._id);

  function handle({ method, path, body = {}, headers }: OutboxRequest & { body?: Record<string, unknown> }): Success<unknown> {
    if (refuse.has(path)) throw new ApiError('Name is not allowed', 400, { errors: [] });
    const match = (pattern: RegExp) => pattern.exec(path);
    if (method === 'POST' && path === `/api/cms/gastro-menus/${SITE}`) return made(rows.menus, body);
    if (method === 'POST' && path === `/api/cms/gastro-menus/${SITE}/allergens`) return made(rows.allergens, body, { identifier: body.identifier ?? null });
    let found = match(/^\/api\/cms\/gastro-menus\/([^/]+)\/items$/);
    if (method === 'POST' && found) {
      const menuId = found[1]!;
      if (!rows.menus.has(menuId)) throw new ApiError('Not found', 404);
      if (((body.allergenIds as string[]) ?? []).some((allergen) => !rows.allergens.has(allergen))) throw new ApiError('This entry does not exist (any more)', 400, { errors: [] });
      return made(rows.items, body, { menuId, position: order(menuId).length });
    }
    found = match(/^\/api\/cms\/gastro-menus\/items\/([^/]+)$/);
    if (method === 'PUT' && found) {
      const current = rows.items.get(found[1]!);
      if (!current) throw new ApiError('Not found', 404);
      if (headers['If-Match'] !== `"${current.version}"`) throw new ApiError('Changed meanwhile', 409, { data: current });
      const row = { ...current, ...body, version: current.version + 1 };
      rows.items.set(row._id, row);
      return ok(row);
    }
    found = match(/^\/api\/cms\/gastro-menus\/([^/]+)\/items\/order$/);
    if (method === 'PUT' && found) {
      const current = order(found[1]!);
      if (headers['If-Match'] !== `"${orderTag(current)}"`) throw new ApiError('Reordered meanwhile', 409, { data: { items: current } });
      (body.items as string[]).forEach((item, position) => rows.items.set(item, { ...rows.items.get(item)!, position }));
      return ok({ items: body.items });
    }
    throw new ApiError(`No route ${method} ${path}`, 404);
  }

  const send = vi.fn(async (call: OutboxRequest) => {
    const key = call.headers['Idempotency-Key']!;
    // A resent request answers from the stored response instead of acting twice (DESIGN §4).
    const answer = answered.get(key) ?? handle(call as OutboxRequest & { body?: Record<string, unknown> });
    if (!answered.has(key)) {
      answered.set(key, answer);
      applied.push(`${call.method} ${call.path}`);
    }
    if (lose.delete(call.path)) throw new ApiError('Network error or server unavailable', 0);
    return answer;
  });
  return { rows, order, applied, lose, refuse, send };
}

function goOffline() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
}

const names = (rows: readonly { name?: unknown }[] | undefined) => rows?.map((row) => row.name);

beforeEach(async () => {
  await clearLocalData();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The server answers the menu's dishes with 2,000 of them. */
function serveMenu(): WireRow[] {
  const rows = Array.from({ length: 2000 }, (_, index) => dish(index + 1));
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ success: true, data: rows, pagination: { currentPage: 1, totalPages: 1, totalItems: 2000, itemsPerPage: 5000 } })));
  return rows;
}

describe('a menu of 2,000 dishes on this device', () => {
  it('is answered before it is kept, kept in slices the screen paints between, and read back as one page in one bulk call', async () => {
    const rows = serveMenu();
    const bulkPut = vi.spyOn(db.records, 'bulkPut');
    const bulkGot = vi.spyOn(db.records, 'bulkGet');
    const fetched = await store.fetchList(items, itemsQuery);
    expect(fetched.items).toHaveLength(2000);
    // Answered from what the device held before (nothing), read ahead of the first slice: none of its rows read back.
    expect(bulkGot.mock.calls[0]?.[0]).toEqual([]);
    // Answered while its page is not on the device yet: that goes in after the last slice.
    expect(await db.cache.count()).toBe(0);
    bulkGot.mockRestore();

    // A read from the store waits until the page is kept.
    expect((await store.cachedList(items, itemsQuery))?.value.items).toHaveLength(2000);
    expect(bulkPut.mock.calls.map(([records]) => records.length)).toEqual(Array(10).fill(200));
    expect(await db.records.where('resource').equals(gastroItems.name).count()).toBe(2000);

    // Read back in one bulk read of the records, not 2,000 reads.
    const get = vi.spyOn(db.records, 'get');
    const bulkGet = vi.spyOn(db.records, 'bulkGet');
    const cached = await store.cachedList(items, itemsQuery);
    expect(cached?.value.items.map((row) => row.id)).toEqual(rows.map((row) => row._id));
    expect(cached?.value.pagination.totalItems).toBe(2000);
    expect(get).not.toHaveBeenCalled();
    expect(bulkGet).toHaveBeenCalledTimes(1);
  });

  it('shows a newer copy this device holds of one of its dishes (a replay that overtook the fetch), and keeps it', async () => {
    const rows = serveMenu();
    await db.records.put({ resource: gastroItems.name, scope: MENU, id: id(7), row: dish(7, { version: 2, name: 'Newer' }), fetchedAt: Date.now() });
    const fetched = await store.fetchList(items, itemsQuery);
    expect(fetched.items[6]).toMatchObject({ id: id(7), version: 2, name: 'Newer' });
    expect(fetched.items.filter((row) => row.version === 2)).toHaveLength(1);
    expect((await store.cachedList(items, itemsQuery))?.value.items[6]).toMatchObject({ name: 'Newer' });
    expect(rows[6]).toMatchObject({ version: 1 });
  });

  it('keeps nothing of a page after a logout that came while it was being kept', async () => {
    serveMenu();
    await store.fetchList(items, itemsQuery);
    await clearLocalData();
    expect(await store.cachedList(items, itemsQuery)).toBeNull();
    expect(await db.records.count()).toBe(0);
    expect(await db.cache.count()).toBe(0);
  });

  it('keeps a whole list another call answered as the page its query reads (the default allergens’ legend)', async () => {
    const legend = ['A', 'B', 'C'].map((letter, index) => ({ _id: id(100 + index), id: id(100 + index), version: 1, createdAt: at, updatedAt: at, identifier: letter, name: `Allergen ${letter}`, content: {} }));
    const query = initialListQuery(allergens, { limit: 100 });
    await keepList(allergens, query, legend);
    const cached = await store.cachedList(allergens, { ...query });
    expect(cached?.value.items.map((row) => row.identifier)).toEqual(['A', 'B', 'C']);
    expect(cached?.value.pagination).toMatchObject({ totalItems: 3, itemsPerPage: 100 });
  });
});

async function makeOffline() {
  goOffline();
  await store.submit(menus, { kind: 'create', id: MENU, values: { name: 'Summer', description: '', status: 'draft', language: 'de' } });
  await store.submit(allergens, { kind: 'create', id: LETTER, values: { identifier: 'A', name: 'Cereals containing gluten', content: {} } });
  const base = { description: '', currency: 'EUR', categoryId: null, available: true, mediaId: null };
  await store.submit(items, { kind: 'create', id: SOUP, values: { ...base, name: 'Soup', price: 450, allergenIds: [LETTER] } });
  await store.submit(items, { kind: 'create', id: STEAK, values: { ...base, name: 'Steak', price: 2490, allergenIds: [] } });
  await store.submit(items, { kind: 'create', id: CAKE, values: { ...base, name: 'Cake', price: 390, allergenIds: [LETTER] } });
}

/** What the dishes list does when a person moves a row. */
const reorder = (ids: string[], before: string[]) => store.reorder(items, ids, before);

describe('a menu made offline', () => {
  it('shows its dishes, made here too, last in the order they were made, then in the order a person gave them', async () => {
    expect(await store.cachedList(items, itemsQuery)).toBeNull();
    await makeOffline();

    // Never fetched, and the server cannot have dishes of a menu it does not know yet: an empty page with what was made here.
    const first = await store.cachedList(items, itemsQuery);
    expect(names(first?.value.items)).toEqual(['Soup', 'Steak', 'Cake']);
    expect(first?.value.items.every((row) => row.pending)).toBe(true);

    await reorder([CAKE, SOUP, STEAK], [SOUP, STEAK, CAKE]);
    await store.submit(items, { kind: 'update', id: STEAK, values: { available: false }, baseVersion: 1 });
    const shown = await store.cachedList(items, itemsQuery);
    expect(names(shown?.value.items)).toEqual(['Cake', 'Soup', 'Steak']);
    expect(shown?.value.items.find((row) => row.id === STEAK)?.available).toBe(false);
  });

  it('sends each dish after its menu and its allergens, the order after the dishes, and the server has everything once', async () => {
    await makeOffline();
    await reorder([CAKE, SOUP, STEAK], [SOUP, STEAK, CAKE]);
    await store.submit(items, { kind: 'update', id: STEAK, values: { available: false }, baseVersion: 1 });
    const soup = (await db.outbox.where('[resource+entityId]').equals([items.name, SOUP]).first())!;
    expect(soup.dependsOn).toEqual(expect.arrayContaining([entityKey(gastroAllergens.name, LETTER), entityKey(gastroMenus.name, MENU)]));

    // Back online on a bad connection: the menu's answer is lost once; it is sent again and made once.
    const server = gastroServer();
    server.lose.add(`/api/cms/gastro-menus/${SITE}`);
    expect((await drain(server.send)).stopped).toBe('offline');
    const result = await drain(server.send);
    expect(result.stopped).toBeNull();
    expect(await db.outbox.count()).toBe(0);

    expect(server.applied).toEqual([
      `POST /api/cms/gastro-menus/${SITE}`,
      `POST /api/cms/gastro-menus/${SITE}/allergens`,
      `POST /api/cms/gastro-menus/${MENU}/items`,
      `POST /api/cms/gastro-menus/${MENU}/items`,
      `POST /api/cms/gastro-menus/${MENU}/items`,
      `PUT /api/cms/gastro-menus/${MENU}/items/order`,
      `PUT /api/cms/gastro-menus/items/${STEAK}`,
    ]);
    expect(server.rows.menus.size).toBe(1);
    expect(server.rows.items.size).toBe(3);
    expect(server.order(MENU)).toEqual([CAKE, SOUP, STEAK]);
    expect(server.rows.items.get(STEAK)).toMatchObject({ available: false, version: 2 });
    expect(server.rows.items.get(SOUP)).toMatchObject({ price: 450, allergenIds: [LETTER] });
  });

  it('does not send its dishes when the menu itself is refused: they fail with it, not with a 404', async () => {
    await makeOffline();
    const server = gastroServer();
    server.refuse.add(`/api/cms/gastro-menus/${SITE}`);
    await drain(server.send);
    expect(server.applied.filter((call) => call.includes('/items'))).toEqual([]);
    const dishes = await db.outbox.where('resource').equals(items.name).toArray();
    expect(dishes.map((entry) => [entry.status, entry.error?.reason])).toEqual([
      ['failed', 'parentNotSaved'],
      ['failed', 'parentNotSaved'],
      ['failed', 'parentNotSaved'],
    ]);
  });
});
