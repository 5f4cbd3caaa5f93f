// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { seedUser, seedWebsite } from '../../../tests/support/users';
import { pgError, PG_FOREIGN_KEY_VIOLATION } from './pg-errors';
import { teamRoles, users } from './schema';
import type { Store } from './store';

const permissions = { cms: true, seo: false, team: false, settings: false };

describe.each(storeKinds)('keys that keep tenants apart (%s)', (kind) => {
  let store: Store;
  const site = { A: '', B: '' };

  beforeAll(async () => {
    store = await createTestStore(kind);
    const owner = await seedUser(store, { type: 'user', email: 'keys@example.test', username: 'keys', password: 'unused password' });
    site.A = (await seedWebsite(store, { ownerId: owner.id })).id;
    site.B = (await seedWebsite(store, { ownerId: owner.id })).id;
  });
  afterAll(() => store.close());

  const role = async (websiteId: string, name = 'Editor') =>
    (await store.db.insert(teamRoles).values({ websiteId, name, permissions, cmsPermissions: {} }).returning())[0]!;

  it('clears only the reference when a composite key’s row goes, never the website it names (every such key, from the catalog)', async () => {
    // Drizzle writes ON DELETE SET NULL over every column of a composite key; left so, deleting a
    // menu would set a dish's website_id to null and fail. Each such key must name its own column.
    const wide = (await store.db.execute(
      sql.raw(`select conname from pg_constraint where contype = 'f' and confdeltype = 'n' and cardinality(conkey) > 1
               and (confdelsetcols is null or cardinality(confdelsetcols) <> 1) order by conname`),
    )) as unknown as { rows: { conname: string }[] };
    expect(wide.rows.map((row) => row.conname)).toEqual([]);
    const narrowed = (await store.db.execute(sql.raw(`select count(*)::int as n from pg_constraint where contype = 'f' and cardinality(confdelsetcols) = 1`))) as unknown as { rows: { n: number }[] };
    expect(narrowed.rows[0]!.n).toBeGreaterThan(0);
  });

  it('gives a team member only a role of their own website, and keeps them when it is deleted', async () => {
    const foreign = await role(site.B);
    const error = await seedUser(store, { type: 'teammember', email: 'm1@example.test', username: 'm1', password: 'unused password', websiteId: site.A })
      .then((member) => store.db.update(users).set({ teamRoleId: foreign.id }).where(eq(users.id, member.id)))
      .catch((caught: unknown) => caught);
    expect(pgError(error)?.code).toBe(PG_FOREIGN_KEY_VIOLATION);

    const own = await role(site.A);
    const member = await seedUser(store, { type: 'teammember', email: 'm2@example.test', username: 'm2', password: 'unused password', websiteId: site.A });
    await store.db.update(users).set({ teamRoleId: own.id }).where(eq(users.id, member.id));
    await store.db.delete(teamRoles).where(eq(teamRoles.id, own.id));
    const [after] = await store.db.select().from(users).where(eq(users.id, member.id));
    expect(after).toMatchObject({ websiteId: site.A, teamRoleId: null });
  });

  it('reserves the role name "admin", which spec §6 reads as an administrator', async () => {
    for (const name of ['admin', ' Admin ', 'ADMIN']) await expect(role(site.A, name)).rejects.toThrow();
    expect((await role(site.A, 'Administrator of pages')).name).toBe('Administrator of pages');
  });
});
