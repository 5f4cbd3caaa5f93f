// @vitest-environment node
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { categories, rowCounts, subcategories, technologies } from './schema';

describe.each(storeKinds)('row counts kept by triggers (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    const user = await seedUser(test.store, { type: 'admin', email: 'count@example.test', username: 'count', password: 'unused password' });
    admin = bearer(await tokenFor(test.store, user.id));
  });
  afterAll(() => test.app.close());

  const kept = async (table: string) => (await test.store.db.select().from(rowCounts).where(eq(rowCounts.tableName, table)))[0]?.n;
  const actual = async (table: string) => (await test.store.db.select({ n: count() }).from(table === 'categories' ? categories : subcategories))[0]!.n;

  it('stays exact through single and bulk inserts, deletes, rollbacks and truncation', async () => {
    const [food] = await test.store.db.insert(categories).values({ name: 'Food' }).returning();
    await test.store.db.execute(sql`insert into categories (id, name) select gen_random_uuid(), 'Bulk ' || g from generate_series(1, 250) g`);
    await test.store.db.insert(subcategories).values([{ name: 'Bakery', categoryId: food!.id }, { name: 'Bistro', categoryId: food!.id }]);
    expect(await kept('categories')).toBe(await actual('categories'));
    expect(await kept('subcategories')).toBe(2);

    await test.store.db.execute(sql`delete from categories where name like 'Bulk 1%'`);
    await test.store.db.delete(subcategories).where(eq(subcategories.name, 'Bistro'));
    expect(await kept('categories')).toBe(await actual('categories'));
    expect(await kept('subcategories')).toBe(1);

    // A change that is rolled back leaves the count as it was.
    await expect(
      test.store.db.transaction(async (tx) => {
        await tx.insert(categories).values({ name: 'Never' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await kept('categories')).toBe(await actual('categories'));

    // Technologies: no table refers to them by a foreign key, so they can be truncated alone.
    await test.store.db.insert(technologies).values([{ name: 'Astro' }, { name: 'Hugo' }]);
    expect(await kept('technologies')).toBe(2);
    await test.store.db.execute(sql`truncate technologies`);
    expect(await kept('technologies')).toBe(0);
  });

  it('is what an unfiltered list reports as its total; a search still counts the matching rows', async () => {
    const total = await actual('categories');
    const list = async (query = '') => (await test.app.inject({ url: `/api/categories?limit=1${query}`, headers: admin })).json().pagination.totalItems;
    expect(await list()).toBe(total);

    // Proof that the kept count is read, not a scan: a count set aside by hand shows through.
    await test.store.db.update(rowCounts).set({ n: total + 1000 }).where(eq(rowCounts.tableName, 'categories'));
    expect(await list()).toBe(total + 1000);
    expect(await list('&search=Food')).toBe(1);
    await test.store.db.update(rowCounts).set({ n: total }).where(eq(rowCounts.tableName, 'categories'));
  });
});
