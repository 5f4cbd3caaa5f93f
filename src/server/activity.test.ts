// @vitest-environment node
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../tests/support/cast';
import { storeKinds } from '../../tests/support/store';
import { revisions } from './store/schema';

/*
 * Issue 20, the activity log: a website's changes, newest first, with who, what, where and what
 * changed, filtered by person, module, action and dates; each of the website's people sees only
 * what they may list, admins everything, across websites and the admin area.
 */

interface Entry {
  _id: string;
  action: string;
  actorId: string | null;
  actorName: string;
  actorKind: string;
  recordId: string;
  entry: string | null;
  module: string | null;
  title: string;
  changes: { field: string; before?: unknown; after?: unknown }[];
  createdAt: string;
  websiteId?: string | null;
}

const log = (id: string) => `/api/websites/${id}/activity`;

describe.each(storeKinds)('the activity log (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let dishId: string;
  let pageId: string;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    const menuId = data(await send('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}`, { name: 'Lunch' }))._id;
    dishId = data(await send('ownerA', 'POST', `/api/cms/gastro-menus/${menuId}/items`, { name: 'Pizza Margherita', price: 890 }))._id;
    const dish = `/api/cms/gastro-menus/items/${dishId}`;
    expect((await send('ownerA', 'PUT', dish, { price: 950 }, 1)).statusCode).toBe(200);
    expect((await send('partner', 'PUT', dish, { price: 990 }, 2)).statusCode).toBe(200);
    const page = await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'About us', slug: 'about' });
    expect(page.statusCode, page.body).toBe(201);
    pageId = data(page)._id;
    // Website B and the admin area change too.
    expect((await send('ownerB', 'POST', `/api/cms/gastro-menus/${cast.site.B}`, { name: 'Dinner at B' })).statusCode).toBe(201);
    expect((await send('admin', 'POST', '/api/categories', { name: 'Restaurants' })).statusCode).toBe(201);
  });
  afterAll(() => test.app.close());

  const read = async (who: Parameters<typeof send>[0], url: string) => {
    const res = await send(who, 'GET', url);
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
    return res.json() as { data: Entry[]; pagination: { totalItems: number } };
  };

  it('shows the changes of a dish’s price newest first, with who, what, where, which record and what changed', async () => {
    const { data: entries } = await read('ownerA', `${log(cast.site.A)}?recordId=${dishId}`);
    expect(entries.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
    const [byPartner, byOwner] = entries;
    expect(byPartner).toMatchObject({ actorId: cast.ids.partner, actorKind: 'user', entry: 'gastroItems', module: 'gastro', title: 'Pizza Margherita', changes: [{ field: 'price', before: 950, after: 990 }] });
    expect(byOwner).toMatchObject({ actorId: cast.ids.ownerA, module: 'gastro', changes: [{ field: 'price', before: 890, after: 950 }] });
    expect(byPartner!.actorName).not.toBe('');
    expect(byPartner!.actorName).not.toBe(byOwner!.actorName);
    // The whole log is newest first too, and a record is read by its id.
    const all = (await read('ownerA', log(cast.site.A))).data;
    const times = all.map((entry) => entry.createdAt);
    expect(times).toEqual(times.toSorted().toReversed());
    expect(all[0]).toMatchObject({ entry: 'pages', module: 'pages', title: 'About us', action: 'create' });
    const one = await send('partner', 'GET', `${log(cast.site.A)}/${byPartner!._id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(data(one)).toMatchObject({ title: 'Pizza Margherita', module: 'gastro' });
  });

  it('narrows by person, module, action and dates: who changed the prices on Friday is one query', async () => {
    const site = log(cast.site.A);
    const byPartner = (await read('ownerA', `${site}?actorId=${cast.ids.partner}`)).data;
    expect(byPartner.length).toBeGreaterThan(0);
    expect(byPartner.every((entry) => entry.actorId === cast.ids.partner)).toBe(true);
    const pages = (await read('ownerA', `${site}?module=pages`)).data;
    expect(pages.map((entry) => entry.recordId)).toEqual([pageId]);
    const updates = (await read('ownerA', `${site}?action=update`)).data;
    expect(updates.map((entry) => entry.changes[0]?.after)).toEqual([990, 950]);

    // The partner's price change was on Friday 20 November 2026, the owner's on Thursday.
    const [partnerChange, ownerChange] = updates;
    await test.store.db.update(revisions).set({ createdAt: new Date('2026-11-20T15:30:00Z') }).where(eq(revisions.id, partnerChange!._id));
    await test.store.db.update(revisions).set({ createdAt: new Date('2026-11-19T09:00:00Z') }).where(eq(revisions.id, ownerChange!._id));
    const friday = (await read('ownerA', `${site}?module=gastro&from=2026-11-20&to=2026-11-20`)).data;
    expect(friday.map((entry) => [entry.actorId, entry.title, entry.changes])).toEqual([[cast.ids.partner, 'Pizza Margherita', [{ field: 'price', before: 950, after: 990 }]]]);
    // Moments with their offset, as the screen sends a day in its own time zone.
    const thursday = (await read('ownerA', `${site}?from=${encodeURIComponent('2026-11-19T00:00:00+01:00')}&to=${encodeURIComponent('2026-11-19T23:59:59.999+01:00')}`)).data;
    expect(thursday.map((entry) => entry._id)).toEqual([ownerChange!._id]);
    // Bad input is bad input.
    expect((await send('ownerA', 'GET', `${site}?module=kitchen`)).statusCode).toBe(400);
    expect((await send('ownerA', 'GET', `${site}?from=friday`)).statusCode).toBe(400);
  });

  it('lists the people whose changes the caller may see, by name', async () => {
    const res = await send('ownerA', 'GET', `/api/websites/${cast.site.A}/activity-people`);
    expect(res.statusCode, res.body).toBe(200);
    expect((data(res) as { _id: string }[]).map((person) => person._id).toSorted()).toEqual([cast.ids.ownerA, cast.ids.partner].toSorted());
    const plain = await send('plainA', 'GET', `/api/websites/${cast.site.A}/activity-people`);
    expect((data(plain) as { _id: string }[]).map((person) => person._id)).toEqual([cast.ids.ownerA]);
  });

  it('shows a team member only what their role lists: pages, never gastro; nothing of another website', async () => {
    const { data: entries } = await read('plainA', log(cast.site.A));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.module === 'pages')).toBe(true);
    expect((await read('plainA', `${log(cast.site.A)}?module=gastro`)).data).toEqual([]);
    // Not even by its id.
    const gastro = (await read('ownerA', `${log(cast.site.A)}?module=gastro`)).data[0]!;
    expect((await send('plainA', 'GET', `${log(cast.site.A)}/${gastro._id}`)).statusCode).toBe(404);
    expect((await send('plainA', 'GET', log(cast.site.B))).statusCode).toBe(404);
  });

  it('answers another website’s owner 404 and a caller without a session 401', async () => {
    expect((await send('ownerB', 'GET', log(cast.site.A))).statusCode).toBe(404);
    const [ofA] = await test.store.db.select().from(revisions).where(eq(revisions.websiteId, cast.site.A));
    expect((await send('ownerB', 'GET', `${log(cast.site.B)}/${ofA!.id}`)).statusCode).toBe(404);
    expect((await send('anonymous', 'GET', log(cast.site.A))).statusCode).toBe(401);
    expect((await send('anonymous', 'GET', '/api/activity')).statusCode).toBe(401);
    expect((await send('ownerA', 'GET', '/api/activity')).statusCode).toBe(403);
  });

  it('lists for admins the changes of every website and of the admin area, filtered by website', async () => {
    const { data: entries } = await read('admin', '/api/activity?limit=100');
    const sites = new Set(entries.map((entry) => entry.websiteId));
    expect(sites.has(cast.site.A) && sites.has(cast.site.B) && sites.has(null)).toBe(true);
    expect(entries.find((entry) => entry.entry === 'categories')).toMatchObject({ websiteId: null, module: null, title: 'Restaurants', action: 'create' });
    const ofB = (await read('admin', `/api/activity?websiteId=${cast.site.B}&module=gastro`)).data;
    expect(ofB.map((entry) => entry.title)).toEqual(['Dinner at B']);
    // A change of a table no entry shows is the admins' alone, and named by nothing.
    const stray = await test.store.db
      .insert(revisions)
      .values({ tableName: 'nobody_shows_this', recordId: cast.site.A, websiteId: cast.site.A, action: 'create', actorKind: 'system', values: { id: cast.site.A } })
      .returning();
    expect((await read('admin', `/api/activity?recordId=${cast.site.A}&action=create`)).data.map((entry) => entry.entry)).toContain(null);
    expect((await read('ownerA', `${log(cast.site.A)}?recordId=${cast.site.A}`)).data.map((entry) => entry.entry)).not.toContain(null);
    await test.store.db.delete(revisions).where(and(eq(revisions.tableName, 'nobody_shows_this'), inArray(revisions.id, stray.map((row) => row.id))));
  });
});
