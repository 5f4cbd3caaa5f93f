// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { languages } from '../store/schema';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

describe.each(storeKinds)('languages beyond CRUD (%s)', (kind) => {
  async function setup(rows: (typeof languages.$inferInsert)[]) {
    const test = await createTestApp({ kind });
    opened.push(test.app);
    if (rows.length > 0) await test.store.db.insert(languages).values(rows);
    const user = await seedUser(test.store, { type: 'partner', email: 'p@example.test', username: 'p', password: 'unused password' });
    return { ...test, auth: bearer(await tokenFor(test.store, user.id)) };
  }
  const switcher = async (app: Awaited<ReturnType<typeof setup>>['app']) => {
    const res = await app.inject({ url: '/api/languages/switcher?userLanguage=de' });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it('offers English and German in the switcher while the catalog has neither', async () => {
    const { app } = await setup([{ name: 'French', code: 'fr', content: {} }]);
    expect(await switcher(app)).toEqual([
      { code: 'en', name: 'English' },
      { code: 'de', name: 'Deutsch' },
    ]);
  });

  it('offers the catalog’s interface languages, each under its own name', async () => {
    const { app } = await setup([
      { name: 'German', code: 'de', content: { de: { name: 'Deutsch (Katalog)' }, en: { name: 'German' } } },
      { name: 'French', code: 'fr', content: { fr: { name: 'Français' } } },
      { name: 'English (catalog)', code: 'en', content: { de: { name: 'Englisch' } } },
    ]);
    expect(await switcher(app)).toEqual([
      { code: 'en', name: 'English (catalog)' },
      { code: 'de', name: 'Deutsch (Katalog)' },
    ]);
  });

  it('lists every language for pickers, sorted by name, to signed-in users only', async () => {
    const { app, auth } = await setup([
      { name: 'Spanish', code: 'es', content: { es: { name: 'Español' } } },
      { name: 'Danish', code: 'da', content: {} },
      { name: 'Italian', code: 'it', content: {} },
    ]);
    const res = await app.inject({ url: '/api/languages/dropdown', headers: auth });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.map((l: { name: string }) => l.name)).toEqual(['Danish', 'Italian', 'Spanish']);
    expect(Object.keys(data[0]).toSorted()).toEqual(['_id', 'code', 'name']);
    // The static segment is not taken for an id, and the generic item route answers beside it.
    expect((await app.inject({ url: `/api/languages/${data[0]._id}`, headers: auth })).json().data).toMatchObject({ name: 'Danish', code: 'da', version: 1 });
    expect((await app.inject({ url: '/api/languages/dropdown' })).statusCode).toBe(401);
  });
});
