import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { categories, subcategories } from '../contract/resources/catalogs';
import { clearLocalData, db, SitekeeperDatabase, type WireRow } from './database';
import { resourceStore as store } from './device-store';
import { requestSync } from './sync';

/**
 * The store over a small in-memory server behind fetch, which follows DESIGN §4: versions +1 per
 * change, If-Match checked (409 with the current row), 400 with field errors for a taken name.
 */
const CAT = '0190d6b0-0000-7000-8000-0000000000c1';
const id = (n: number) => `0190d6b0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const at = '2024-05-01T10:00:00.000Z';

interface Call {
  method: string;
  url: string;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

let rows: Map<string, WireRow>;
let calls: Call[];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function seed(count: number, fields: (n: number) => Record<string, unknown> = (n) => ({ name: `Sub ${n}` })) {
  for (let n = 1; n <= count; n++) rows.set(id(n), { _id: id(n), version: 1, createdAt: at, updatedAt: at, description: '', categoryId: CAT, ...fields(n) });
}

function serve(call: Call): Response {
  const url = new URL(call.url, 'http://localhost');
  const [, , , itemId] = url.pathname.split('/');
  if (call.method === 'GET' && !itemId) {
    const search = url.searchParams.get('search')?.toLowerCase();
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = [...rows.values()].filter((row) => !search || String(row.name).toLowerCase().includes(search));
    const data = all.slice((page - 1) * limit, page * limit);
    return json({ success: true, data, pagination: { currentPage: page, totalPages: Math.max(1, Math.ceil(all.length / limit)), totalItems: all.length, itemsPerPage: limit } });
  }
  if (call.method === 'POST') {
    const { _id, ...fields } = call.body as { _id: string; name?: unknown };
    if ([...rows.values()].some((row) => row.name === fields.name)) {
      return json({ success: false, message: 'Some fields are not valid', errors: [{ path: 'body.name', message: 'This value is already in use' }] }, 400);
    }
    const row = { description: '', ...fields, _id, version: 1, createdAt: at, updatedAt: at } as WireRow;
    rows.set(_id, row);
    return json({ success: true, data: row, message: 'Subcategory created successfully' }, 201);
  }
  const current = rows.get(itemId!);
  if (!current) return json({ success: false, message: 'Not found' }, 404);
  if (call.method === 'GET') return json({ success: true, data: current });
  if (call.headers.get('If-Match') !== `"${current.version}"`) {
    return json({ success: false, message: 'Someone else changed this subcategory in the meantime.', data: current }, 409);
  }
  if (call.method === 'DELETE') {
    rows.delete(itemId!);
    return json({ success: true, data: null });
  }
  const row = { ...current, ...call.body, version: current.version + 1 } as WireRow;
  rows.set(itemId!, row);
  return json({ success: true, data: row });
}

async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const call: Call = {
    method: init?.method ?? 'GET',
    url: String(input),
    headers: new Headers(init?.headers),
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
  };
  calls.push(call);
  return serve(call);
}

const fetchMock = vi.fn<typeof fetch>(fakeFetch);

const mutations = () => calls.filter((call) => call.method !== 'GET');
const names = (items: readonly { name?: unknown }[]) => items.map((item) => item.name);

function goOffline(): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
}

beforeEach(async () => {
  await clearLocalData();
  rows = new Map();
  calls = [];
  localStorage.setItem('auth_token', 'tok-1');
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('reading', () => {
  it('caches a fetched page and returns it for the same query, however it is spelled', async () => {
    seed(3);
    const fetched = await store.fetchList(subcategories, { page: 1, limit: 10 });

    const cached = await store.cachedList(subcategories, { search: '', categoryId: '' });
    expect(cached?.value).toEqual(fetched);
    expect(names(cached!.value.items)).toEqual(['Sub 1', 'Sub 2', 'Sub 3']);
    expect(cached!.value.items[0]).toMatchObject({ id: id(1), version: 1 });
    expect(cached!.fetchedAt).toBeGreaterThan(Date.now() - 5000);
    expect(await store.cachedList(subcategories, { page: 2, limit: 10 })).toBeNull();
  });

  it('keeps a page of one slice before answering it: what was seen is on the device when the app is reopened offline', async () => {
    seed(3);
    await store.fetchList(subcategories, { page: 1, limit: 10 });
    expect(await db.cache.count()).toBe(1);
    expect(await db.records.where('resource').equals('subcategories').count()).toBe(3);
  });

  it('caches a fetched record', async () => {
    seed(1);
    await store.fetchRecord(subcategories, id(1));
    expect((await store.cachedRecord(subcategories, id(1)))?.value).toMatchObject({ id: id(1), name: 'Sub 1' });
  });

  it('drops a cached row that no longer parses, and its page, instead of showing it', async () => {
    seed(2);
    await store.fetchList(subcategories, {});
    // Read through the store, which waits until the fetched page is kept.
    expect(await store.cachedList(subcategories, {})).not.toBeNull();
    await db.records.update(['subcategories', id(2)], { row: { ...rows.get(id(2))!, name: '' } });

    expect(await store.cachedList(subcategories, {})).toBeNull();
    expect(await store.cachedRecord(subcategories, id(2))).toBeNull();
    expect(await db.records.get(['subcategories', id(2)])).toBeUndefined();
    expect(await db.cache.count()).toBe(0);
  });

  it('never lets a fetch replace a newer row (a slow answer racing a replay)', async () => {
    seed(1);
    await store.fetchRecord(subcategories, id(1));
    // A replay wrote version 2 while the list below was on its way with version 1.
    await db.records.update(['subcategories', id(1)], { row: { ...rows.get(id(1))!, version: 2, name: 'Newer' } });

    expect(names((await store.fetchList(subcategories, {})).items)).toEqual(['Newer']);
    expect((await store.cachedRecord(subcategories, id(1)))?.value).toMatchObject({ version: 2, name: 'Newer' });
  });

  it('keeps the pages it caches within bounds', async () => {
    seed(1);
    for (let n = 0; n < 55; n++) await store.fetchList(subcategories, { search: `s${n}` });
    expect(await db.cache.where('resource').equals('subcategories').count()).toBe(50);
  });
});

describe('changes not yet on the server', () => {
  beforeEach(async () => {
    seed(3);
    await store.fetchList(subcategories, { page: 1, limit: 10 });
    await store.fetchList(subcategories, { page: 1, limit: 10, search: 'sub 2' });
    await store.fetchList(subcategories, { page: 2, limit: 2 });
    goOffline();
  });

  it('an update changes the row in every cached list and the record, marked pending', async () => {
    expect(await store.submit(subcategories, { kind: 'update', id: id(2), values: { name: 'Renamed' }, baseVersion: 1 })).toEqual({ status: 'queued' });

    const list = (await store.cachedList(subcategories, { page: 1, limit: 10 }))!.value;
    expect(names(list.items)).toEqual(['Sub 1', 'Renamed', 'Sub 3']);
    expect(list.items[1]).toMatchObject({ pending: true, version: 1 });
    expect(list.items[0]).not.toHaveProperty('pending');
    expect((await store.cachedRecord(subcategories, id(2)))?.value).toMatchObject({ name: 'Renamed', pending: true });
    expect(mutations()).toEqual([]);
  });

  it('a delete hides the row and counts it out', async () => {
    await store.submit(subcategories, { kind: 'delete', id: id(2), baseVersion: 1 });

    const list = (await store.cachedList(subcategories, { page: 1, limit: 10 }))!.value;
    expect(names(list.items)).toEqual(['Sub 1', 'Sub 3']);
    expect(list.pagination.totalItems).toBe(2);
    expect((await store.cachedList(subcategories, { page: 1, limit: 10, search: 'sub 2' }))!.value.items).toEqual([]);
    expect(await store.cachedRecord(subcategories, id(2))).toBeNull();
  });

  it('a create appears on the first page of the queries it matches, and as a record', async () => {
    const created = id(9);
    await store.submit(subcategories, { kind: 'create', id: created, values: { name: 'Sub 2 bis', description: '', categoryId: CAT } });

    const all = (await store.cachedList(subcategories, { page: 1, limit: 10 }))!.value;
    expect(names(all.items)).toEqual(['Sub 2 bis', 'Sub 1', 'Sub 2', 'Sub 3']);
    expect(all.items[0]).toMatchObject({ id: created, version: 1, pending: true });
    expect(all.pagination.totalItems).toBe(4);
    expect(names((await store.cachedList(subcategories, { page: 1, limit: 10, search: 'sub 2' }))!.value.items)).toEqual(['Sub 2 bis', 'Sub 2']);
    expect(names((await store.cachedList(subcategories, { page: 2, limit: 2 }))!.value.items)).toEqual(['Sub 3']);
    expect((await store.cachedRecord(subcategories, created))?.value).toMatchObject({ name: 'Sub 2 bis', pending: true });
  });

  it('a create that does not match a query’s search stays out of it', async () => {
    await store.submit(subcategories, { kind: 'create', id: id(9), values: { name: 'Other', description: '', categoryId: CAT } });
    expect(names((await store.cachedList(subcategories, { page: 1, limit: 10, search: 'sub 2' }))!.value.items)).toEqual(['Sub 2']);
  });

  it('a create filtered out by an equality filter stays out of it', async () => {
    await store.fetchList(subcategories, { categoryId: CAT });
    await store.submit(subcategories, { kind: 'create', id: id(9), values: { name: 'Elsewhere', description: '', categoryId: id(77) } });
    expect(names((await store.cachedList(subcategories, { categoryId: CAT }))!.value.items)).not.toContain('Elsewhere');
  });

  it('a fresh fetch still shows the changes the server has not seen', async () => {
    await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'Mine' }, baseVersion: 1 });
    vi.restoreAllMocks();

    const page = await store.fetchList(subcategories, { page: 1, limit: 10 });
    expect(names(page.items)).toEqual(['Mine', 'Sub 2', 'Sub 3']);
    expect(await store.fetchRecord(subcategories, id(1))).toMatchObject({ name: 'Mine', pending: true });
  });

  it('a record created here and not yet on the server is its own answer to a fetch', async () => {
    await store.submit(subcategories, { kind: 'create', id: id(9), values: { name: 'Local', description: '', categoryId: CAT } });
    vi.restoreAllMocks();

    // The server answers 404: it does not have it yet.
    await expect(store.fetchRecord(subcategories, id(9))).resolves.toMatchObject({ name: 'Local' });
  });
});

describe('submit', () => {
  beforeEach(async () => {
    seed(2);
    await store.fetchList(subcategories, { page: 1, limit: 10 });
  });

  it('stores the change before it sends it, then answers with the server’s row', async () => {
    let storedWhenSent = -1;
    fetchMock.mockImplementationOnce(async (input, init) => {
      // Read through another connection, as the service worker would.
      const other = new SitekeeperDatabase();
      storedWhenSent = await other.outbox.count();
      other.close();
      return fakeFetch(input, init);
    });

    const outcome = await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'Renamed' }, baseVersion: 1 });

    expect(storedWhenSent).toBe(1);
    expect(outcome).toEqual({ status: 'done', row: expect.objectContaining({ id: id(1), name: 'Renamed', version: 2 }) });
    const [put] = mutations();
    expect(put).toMatchObject({ method: 'PUT', url: `/api/subcategories/${id(1)}` });
    expect(put!.headers.get('If-Match')).toBe('"1"');
    expect(put!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.outbox.count()).toBe(0);
    expect((await store.cachedRecord(subcategories, id(1)))?.value).not.toHaveProperty('pending');
  });

  it('answers a 409 with the server’s version, as a row', async () => {
    rows.set(id(1), { ...rows.get(id(1))!, name: 'Theirs', version: 3 });

    const outcome = await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'Mine' }, baseVersion: 1 });

    expect(outcome).toMatchObject({ status: 'conflict', message: 'Someone else changed this subcategory in the meantime.', current: { id: id(1), name: 'Theirs', version: 3 } });
    expect((await db.outbox.toArray())[0]?.status).toBe('conflict');
  });

  it('answers a refusal with the server’s message and field errors', async () => {
    const outcome = await store.submit(subcategories, { kind: 'create', id: id(9), values: { name: 'Sub 1', description: '', categoryId: CAT } });

    expect(outcome).toEqual({ status: 'failed', message: 'Some fields are not valid', errors: [{ path: 'body.name', message: 'This value is already in use' }] });
  });

  it('answers queued at once offline, without a call', async () => {
    goOffline();
    const started = Date.now();

    expect(await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'x' }, baseVersion: 1 })).toEqual({ status: 'queued' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(mutations()).toEqual([]);
  });

  it('answers queued as soon as the server cannot be reached, keeping the change', async () => {
    // Sent again at once without an answer, then no answer again (db/outbox-drain.ts deliver).
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const started = Date.now();

    expect(await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'x' }, baseVersion: 1 })).toEqual({ status: 'queued' });
    expect(Date.now() - started).toBeLessThan(1000);
    // No answer is not the change's fault: it counts no attempt towards failing it.
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('hears how the change ended as soon as another context writes it (the service worker’s drain), not when its own call returns', async () => {
    let answer: ((response: Response) => void) | undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const outcome = store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'Mine' }, baseVersion: 1 });
    await vi.waitFor(() => expect(answer).toBeDefined());

    const theirs = { ...rows.get(id(1))!, name: 'Theirs', version: 3 };
    const other = new SitekeeperDatabase();
    const [entry] = await other.outbox.toArray();
    await other.outbox.update(entry!.seq!, { status: 'conflict', current: theirs, error: { message: 'Changed elsewhere', errors: [], status: 409 } });
    other.close();

    // The page's own call is still unanswered.
    expect(await outcome).toMatchObject({ status: 'conflict', message: 'Changed elsewhere', current: { name: 'Theirs', version: 3 } });
    answer!(json({ success: false, message: 'Changed elsewhere', data: theirs }, 409));
    await requestSync();
  });

  it('a delete is done with no row', async () => {
    expect(await store.submit(subcategories, { kind: 'delete', id: id(2), baseVersion: 1 })).toEqual({ status: 'done', row: null });
    expect(names((await store.cachedList(subcategories, { page: 1, limit: 10 }))!.value.items)).toEqual(['Sub 1']);
  });

  it('a create stays on the pages fetched before it reached the server', async () => {
    await store.submit(subcategories, { kind: 'create', id: id(9), values: { name: 'New', description: '', categoryId: CAT } });

    const list = (await store.cachedList(subcategories, { page: 1, limit: 10 }))!.value;
    expect(names(list.items)).toEqual(['New', 'Sub 1', 'Sub 2']);
    expect(list.items[0]).not.toHaveProperty('pending');
  });

  it('labels the entry for the sync panel and stores its translated fallback', async () => {
    goOffline();
    await store.submit(categories, { kind: 'update', id: id(1), values: { description: 'x' }, baseVersion: 1 });
    await store.submit(subcategories, { kind: 'update', id: id(2), values: { name: 'Renamed' }, baseVersion: 1 });

    const entries = await db.outbox.toArray();
    expect(entries.map((entry) => [entry.label, entry.fallback])).toEqual([
      [{ item: 'category', title: '' }, 'Failed to update category'],
      [{ item: 'subcategory', title: 'Renamed' }, 'Failed to update subcategory'],
    ]);
  });
});

describe('versions this device wrote itself', () => {
  it('stay ours after a fetch: an editor still on the version before our change continues from it', async () => {
    seed(1);
    await store.fetchRecord(subcategories, id(1));
    expect(await store.submit(subcategories, { kind: 'update', id: id(1), values: { name: 'First' }, baseVersion: 1 })).toMatchObject({ status: 'done' });
    await store.fetchList(subcategories, {});

    expect(await store.submit(subcategories, { kind: 'update', id: id(1), values: { description: 'Second' }, baseVersion: 1 })).toMatchObject({ status: 'done' });
    expect(rows.get(id(1))).toMatchObject({ name: 'First', description: 'Second', version: 3 });
  });
});
