import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appSettings, users } from '../../src/server/store/schema';
import { createTestStore, storeKinds } from './store';
import { seedUser } from './users';

// The reuse of closed stores (ADR 023): what the next test gets must be what a new store is.
describe.each(storeKinds)('a test store given back (%s)', (kind) => {
  it('comes back to the next test empty but for what the migrations made', async () => {
    const first = await createTestStore(kind);
    const settings = await first.db.select().from(appSettings);
    await seedUser(first, { type: 'admin', email: 'left@example.test', username: 'left', password: 'correct horse 1' });
    await first.db.update(appSettings).set({ cmsName: 'Left behind' });
    await first.close();

    const second = await createTestStore(kind);
    try {
      expect(second.db).toBe(first.db);
      expect(await second.db.select().from(users)).toEqual([]);
      expect(await second.db.select().from(appSettings)).toEqual(settings);
    } finally {
      await second.close();
    }
  });

  it('is not given to another test once its test changed the schema', async () => {
    const first = await createTestStore(kind);
    await first.db.execute(sql.raw('create table left_behind (id int)'));
    await first.close();

    const second = await createTestStore(kind);
    try {
      expect(second.db).not.toBe(first.db);
    } finally {
      await second.close();
    }
  });
});
