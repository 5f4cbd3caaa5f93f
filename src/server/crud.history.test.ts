// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../tests/support/cast';
import { storeKinds } from '../../tests/support/store';
import type { Changes } from '../contract/history';

type Revision = { action: string; actorKind: string; actorName: string; device: string; changes: Changes; values: Record<string, unknown> };
import { revisions, smtpSettings } from './store/schema';

/*
 * Issue 20: every change of a record is written down in its own transaction (migration 0014's row
 * trigger), and read back as the entry shows the record, behind the record's own read policy.
 */

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

describe.each(storeKinds)('a record’s history (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let menuId: string;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => ({ ...cast.headers, ownerA: { ...cast.headers.ownerA, 'user-agent': PHONE } }));
    menuId = data(await send('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}`, { name: 'Lunch' }))._id;
  });
  afterAll(() => test.app.close());

  const query = async <T>(text: string) => ((await test.store.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
  /** A record's history as its form reads it: the website's activity, filtered to the record, newest first. */
  const historyOf = async (recordId: string, who: Parameters<typeof send>[0] = 'ownerA') => {
    const res = await send(who, 'GET', `/api/websites/${cast.site.A}/activity?recordId=${recordId}&limit=100`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.json() as { data: Revision[]; pagination: { totalItems: number } };
  };
  const dish = async (body: object = {}) => {
    const res = await send('ownerA', 'POST', `/api/cms/gastro-menus/${menuId}/items`, { name: 'Pizza Margherita', price: 890, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number };
  };

  it('writes each change with who, from which device, the fields it changed and their values before; newest first', async () => {
    const made = await dish();
    const path = `/api/cms/gastro-menus/items/${made._id}`;
    expect((await send('ownerA', 'PUT', path, { price: 950 }, 1)).statusCode).toBe(200);
    expect((await send('partner', 'PUT', path, { price: 990, description: 'Tomatoes, mozzarella' }, 2)).statusCode).toBe(200);

    const { data: history, pagination } = await historyOf(made._id);
    expect(pagination.totalItems).toBe(3);
    expect(history.map((revision) => revision.action)).toEqual(['update', 'update', 'create']);
    const [second, first, created] = history;
    expect(first!.changes).toEqual([{ field: 'price', before: 890, after: 950 }]);
    expect(first).toMatchObject({ actorKind: 'user', device: 'Chrome · Android' });
    expect(first!.actorName).not.toBe('');
    expect(second!.changes).toEqual([
      { field: 'description', before: '', after: 'Tomatoes, mozzarella' },
      { field: 'price', before: 950, after: 990 },
    ]);
    expect(second!.actorName).not.toBe(first!.actorName);
    expect(created!.values).toMatchObject({ name: 'Pizza Margherita', price: 890, menuId });
    // What a restore of the first change saves: the record as that change left it.
    expect(first!.values).toMatchObject({ name: 'Pizza Margherita', price: 950, description: '' });
  });

  it('writes nothing for a change that failed, and nothing for a save that changed nothing', async () => {
    const made = await dish();
    const path = `/api/cms/gastro-menus/items/${made._id}`;
    const count = async () => (await test.store.db.select().from(revisions).where(eq(revisions.recordId, made._id))).length;
    expect(await count()).toBe(1);
    // Refused by the database: a category of another menu (the composite foreign key).
    const otherMenu = data(await send('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}`, { name: 'Dinner' }))._id;
    const category = data(await send('ownerA', 'POST', `/api/cms/gastro-menus/${otherMenu}/categories`, { name: 'Pasta' }))._id;
    const refused = await send('ownerA', 'PUT', path, { categoryId: category, price: 100 }, 1);
    expect(refused.statusCode, refused.body).toBe(400);
    // Refused as bad input.
    expect((await send('ownerA', 'PUT', path, { price: -1 }, 1)).statusCode).toBe(400);
    // A stale version: 409, nothing written.
    expect((await send('ownerA', 'PUT', path, { price: 100 }, 7)).statusCode).toBe(409);
    // The same values again.
    expect((await send('ownerA', 'PUT', path, { price: 890 }, 1)).statusCode).toBe(200);
    expect(await count()).toBe(1);
  });

  it('restoring is an update from the version shown: a record changed since answers the conflict', async () => {
    const made = await dish();
    const path = `/api/cms/gastro-menus/items/${made._id}`;
    await send('ownerA', 'PUT', path, { price: 1000 }, 1);
    await send('ownerA', 'PUT', path, { price: 1100 }, 2);
    const [, first] = (await historyOf(made._id)).data;
    const restored = { price: first!.values.price as number };
    // Shown at version 2, changed to 3 since.
    expect((await send('ownerA', 'PUT', path, restored, 2)).statusCode).toBe(409);
    const res = await send('ownerA', 'PUT', path, restored, 3);
    expect(data(res).price).toBe(1000);
    expect((await historyOf(made._id)).data[0]!.changes).toEqual([{ field: 'price', before: 1100, after: 1000 }]);
  });

  it('keeps a secret out: a changed SMTP password is named, its value (even encrypted) is nowhere', async () => {
    const path = `/api/cms/contact-forms/${cast.site.A}/smtp`;
    const first = await send('ownerA', 'PUT', path, { host: 'mail.example.com', fromEmail: 'shop@example.com', password: 'first secret' });
    expect(first.statusCode, first.body).toBe(201);
    expect((await send('ownerA', 'PUT', path, { password: 'second secret' }, 1)).statusCode).toBe(200);
    const [stored] = await test.store.db.select().from(smtpSettings).where(eq(smtpSettings.websiteId, cast.site.A));
    const { data: history } = await historyOf(stored!.id);
    expect(history[0]!.changes).toEqual([{ field: 'password', secret: true }]);
    expect(history[0]!.values).not.toHaveProperty('password');
    const kept = JSON.stringify(await test.store.db.select().from(revisions).where(eq(revisions.recordId, stored!.id)));
    expect(kept).not.toContain('secret');
    expect(kept).not.toContain(stored!.passwordEncrypted!);
    expect(JSON.stringify(history)).not.toContain(stored!.passwordEncrypted!);
  });

  it('writes a reorder once, on the parent, and a form sent through the delivery API as a visitor’s', async () => {
    const [a, b] = [await dish({ name: 'A' }), await dish({ name: 'B' })];
    const items = data(await send('ownerA', 'GET', `/api/cms/gastro-menus/${menuId}/items?limit=5000`)) as { _id: string }[];
    const ids = items.map((item) => item._id);
    const reordered = [...ids.filter((id) => id !== a._id && id !== b._id), b._id, a._id];
    const order = await test.app.inject({ method: 'PUT', url: `/api/cms/gastro-menus/${menuId}/items/order`, headers: { ...cast.headers.ownerA, 'if-match': `"${(await import('../contract/order')).orderTag(ids)}"` }, payload: { items: reordered } });
    expect(order.statusCode, order.body).toBe(200);
    const [latest] = (await historyOf(menuId)).data;
    expect(latest).toMatchObject({ action: 'reorder', changes: [{ field: 'items', before: ids, after: reordered }], values: {} });
    expect((await test.store.db.select().from(revisions).where(eq(revisions.recordId, a._id))).map((row) => row.action)).toEqual(['create']);

    const key = data(await send('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`, {})).key as string;
    const form = data(await send('ownerA', 'POST', `/api/cms/contact-forms/${cast.site.A}`, { name: 'Booking', fields: [{ name: 'note', label: 'Note' }] }));
    const sent = await test.app.inject({ method: 'POST', url: `/api/public/forms/${form._id}/submissions`, headers: { 'x-api-key': key, 'user-agent': PHONE }, payload: { note: 'A table for 4' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const [submitted] = await test.store.db.select().from(revisions).where(eq(revisions.tableName, 'contact_submissions'));
    expect(submitted).toMatchObject({ action: 'create', actorKind: 'visitor', actorId: null, device: 'Chrome · Android', websiteId: cast.site.A });
    // The mail job's bookkeeping on it is no change of the record.
    await test.store.db.execute(sql`update contact_submissions set mail_attempts = mail_attempts + 1`);
    expect(await test.store.db.select().from(revisions).where(eq(revisions.tableName, 'contact_submissions'))).toHaveLength(1);
  });

  it('tracks every table of records, and keeps out every column that holds a secret, a hash or a token', async () => {
    const records = await query<{ table_name: string; columns: string[] }>(`
      select table_name, array_agg(column_name::text) as columns from information_schema.columns where table_schema = current_schema()
      group by table_name having bool_or(column_name = 'id') and bool_or(column_name = 'version')`);
    const triggers = await query<{ table_name: string; secret: string }>(`
      select c.relname as table_name, encode(t.tgargs, 'escape') as secret from pg_trigger t join pg_class c on c.oid = t.tgrelid where right(t.tgname, 10) = '_revisions'`);
    const tracked = new Map(triggers.map((trigger) => [trigger.table_name, trigger.secret]));
    expect(records.length).toBeGreaterThan(25);
    for (const { table_name, columns } of records.filter((record) => record.table_name !== 'revisions' && record.table_name !== 'recycle_bin')) {
      expect(tracked.has(table_name), `${table_name} keeps no history`).toBe(true);
      for (const column of columns.filter((name) => /hash|encrypted|secret|token|password|pin/.test(name))) {
        expect(tracked.get(table_name)!.split('\\000')[0], `${table_name}.${column}`).toContain(column);
      }
    }
  });

  it('is read as the record is: its website’s team sees it with view of the module, nobody outside the website', async () => {
    const page = data(await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'About us', content: '<p>Since 1990</p>' }));
    expect((await historyOf(page._id, 'memberA')).data).toHaveLength(1);
    const made = await dish();
    // Their role has no level in the restaurant menus: the dish's changes are not theirs to read.
    expect((await historyOf(made._id, 'memberA')).data).toEqual([]);
    const url = `/api/websites/${cast.site.A}/activity?recordId=${made._id}`;
    for (const who of ['ownerB', 'memberB'] as const) expect((await send(who, 'GET', url)).statusCode).toBe(404);
    expect((await send('anonymous', 'GET', url)).statusCode).toBe(401);
    // A deleted record's history stays, with its delete last: what the recycle bin restores from.
    expect((await send('ownerA', 'DELETE', `/api/cms/gastro-menus/items/${made._id}`, undefined, 1)).statusCode).toBe(200);
    expect((await historyOf(made._id)).data.map((revision) => revision.action)).toEqual(['delete', 'create']);
  });
});
