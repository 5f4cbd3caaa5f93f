// @vitest-environment node
import { verify } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, createTestStore, storeKinds } from '../../../tests/support/store';
import { firstStart, type FirstAdmin, type FirstStartOptions } from './first-start';
import { openStore, type Store } from './open';
import { DEMO_MEMBER_EMAIL } from './demo';
import { appSettings, categories, cmsPages, contactForms, gastroAllergens, gastroItems, gastroMenus, languages, menuItems, posts, seo, subcategories, teamRoles, types, users, websites } from './schema';

const stores: Store[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function recorder() {
  const created: FirstAdmin[] = [];
  return { created, init: (opts: FirstStartOptions = { adminEmail: null, adminPassword: null, demo: false }) => firstStart(opts, (a) => created.push(a)) };
}

describe.each(storeKinds)('first start (%s)', (kind) => {
  it('creates one verified admin with an argon2id hash of the generated password', async () => {
    const { created, init } = recorder();
    const store = await createTestStore(kind, init());
    stores.push(store);
    expect(created).toHaveLength(1);
    const password = created[0]!.generatedPassword!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    const rows = await store.db.select().from(users);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'admin', verified: true, status: 'active', email: 'admin@localhost' });
    expect(rows[0]!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(rows[0]!.passwordHash, password)).toBe(true);
  });

  it('creates English and German, each named in both interface languages', async () => {
    const store = await createTestStore(kind, recorder().init());
    stores.push(store);
    const rows = await store.db.select().from(languages).orderBy(languages.code);
    expect(rows.map(({ name, code, content }) => ({ name, code, content }))).toEqual([
      { name: 'German', code: 'de', content: { en: { name: 'German' }, de: { name: 'Deutsch' } } },
      { name: 'English', code: 'en', content: { en: { name: 'English' }, de: { name: 'Englisch' } } },
    ]);
  });

  it('adds demo catalogs, services and an owner with a website unless DEMO=0, and only on the first start', async () => {
    const { init, created } = recorder();
    const demo = await createTestStore(kind, init({ adminEmail: null, adminPassword: null, demo: true }));
    stores.push(demo);
    await init({ adminEmail: null, adminPassword: null, demo: true })(demo.db);
    const [food] = await demo.db.select().from(categories).where(eq(categories.name, 'Gastronomy'));
    expect(food).toBeDefined();
    const bakeries = await demo.db.select().from(subcategories).where(eq(subcategories.categoryId, food!.id));
    expect(bakeries.map((row) => row.name)).toContain('Bakery');
    expect(await demo.db.select().from(categories)).toHaveLength(4);
    expect((await demo.db.select().from(types)).length).toBeGreaterThan(0);
    // The demo owner signs in with the password shown once, and owns a priced restaurant website.
    const owner = created[0]!.demoOwner!;
    const [ownerRow] = await demo.db.select().from(users).where(eq(users.email, owner.email));
    expect(ownerRow).toMatchObject({ type: 'user', status: 'active' });
    expect(await verify(ownerRow!.passwordHash, owner.password)).toBe(true);
    const sites = await demo.db.select().from(websites).where(eq(websites.ownerId, ownerRow!.id));
    expect(sites).toHaveLength(1);
    expect(sites[0]).toMatchObject({ name: 'Trattoria Demo', status: 'active' });
    expect(sites[0]!.price).toBeGreaterThan(0);
    expect(sites[0]!.modules).toContain('gastro');
    // Its CMS has content the delivery API serves at once: published pages in a menu, a post, SEO.
    const site = sites[0]!.id;
    const published = await demo.db.select().from(cmsPages).where(and(eq(cmsPages.websiteId, site), eq(cmsPages.status, 'published')));
    expect(published.length).toBeGreaterThanOrEqual(2);
    expect(await demo.db.select().from(menuItems).where(eq(menuItems.websiteId, site))).toHaveLength(3);
    expect(await demo.db.select().from(posts).where(eq(posts.websiteId, site))).toHaveLength(1);
    expect(await demo.db.select().from(seo).where(eq(seo.websiteId, site))).toHaveLength(1);
    // A published food menu with the 14 default allergens and a dozen dishes, a booking form, and a
    // view-only team member who signs in with the owner's password.
    const [menu] = await demo.db.select().from(gastroMenus).where(eq(gastroMenus.websiteId, site));
    expect(menu).toMatchObject({ status: 'published', language: 'de' });
    expect((await demo.db.select().from(gastroAllergens).where(eq(gastroAllergens.websiteId, site))).map((row) => row.identifier).toSorted().join('')).toBe('ABCDEFGHLMNOPR');
    const dishes = await demo.db.select().from(gastroItems).where(eq(gastroItems.menuId, menu!.id));
    expect(dishes).toHaveLength(12);
    expect(dishes.every((dish) => dish.categoryId !== null)).toBe(true);
    expect(await demo.db.select().from(contactForms).where(eq(contactForms.websiteId, site))).toHaveLength(1);
    const [member] = await demo.db.select().from(users).where(eq(users.email, DEMO_MEMBER_EMAIL));
    expect(member).toMatchObject({ type: 'teammember', websiteId: site });
    expect(await verify(member!.passwordHash, owner.password)).toBe(true);
    const [role] = await demo.db.select().from(teamRoles).where(eq(teamRoles.id, member!.teamRoleId!));
    expect(Object.values(role!.cmsPermissions).every((level) => level === 'view')).toBe(true);

    const empty = await createTestStore(kind, init());
    stores.push(empty);
    expect(await empty.db.select().from(categories)).toHaveLength(0);
    expect(await empty.db.select().from(websites)).toHaveLength(0);
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD and prints no password of its own', async () => {
    const { created, init } = recorder();
    const store = await createTestStore(kind, init({ adminEmail: 'boss@agency.test', adminPassword: 'correct horse battery', demo: false }));
    stores.push(store);
    expect(created).toEqual([{ email: 'boss@agency.test', username: 'admin', generatedPassword: null, demoOwner: null }]);
    // The footer's Support link leads to the first admin until the settings name another.
    const [settingsRow] = await store.db.select().from(appSettings);
    expect(settingsRow!.supportUrl).toBe('mailto:boss@agency.test');
    const [admin] = await store.db.select().from(users).where(eq(users.email, 'boss@agency.test'));
    expect(await verify(admin!.passwordHash, 'correct horse battery')).toBe(true);
  });

  it('does nothing on a store that was initialized before', async () => {
    const { created, init } = recorder();
    const store = await createTestStore(kind, init());
    stores.push(store);
    await init()(store.db);
    await init({ adminEmail: 'other@x.test', adminPassword: 'another password', demo: false })(store.db);
    expect(created).toHaveLength(1);
    expect(await store.db.select().from(users)).toHaveLength(1);
    expect(await store.db.select().from(languages)).toHaveLength(2);
  });
});

describe.runIf(storeKinds.includes('postgres'))('first start on a shared PostgreSQL', () => {
  it('creates the admin exactly once when instances start at the same moment', async () => {
    const database = await createPgDatabase();
    const { created, init } = recorder();
    try {
      const opened = await Promise.all(
        Array.from({ length: 4 }, () => openStore({ kind: 'postgres', url: database.url }, init())),
      );
      stores.push(...opened);
      expect(created).toHaveLength(1);
      expect(await opened[0]!.db.select().from(users)).toHaveLength(1);
    } finally {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      await database.drop();
    }
  });
});

async function dataDir() {
  const dir = await mkdtemp(join(tmpdir(), 'sk-data-'));
  dirs.push(dir);
  return join(dir, 'db');
}

describe('first start on an embedded data directory', () => {
  it('keeps its data across restarts and creates no second admin', async () => {
    const dir = await dataDir();
    const { created, init } = recorder();
    const first = await openStore({ kind: 'pglite', dataDir: dir }, init());
    const [admin] = await first.db.select().from(users);
    await first.close();
    const second = await openStore({ kind: 'pglite', dataDir: dir }, init());
    stores.push(second);
    expect(created).toHaveLength(1);
    expect((await second.db.select().from(users)).map((u) => u.id)).toEqual([admin!.id]);
  });

  it('discards what an interrupted first start left behind and starts over', async () => {
    const dir = await dataDir();
    // What a process killed during initialization leaves: a half-written staging directory.
    const staging = `${dir}.init-12345-1`;
    await mkdir(staging);
    await writeFile(join(staging, 'PG_VERSION'), '18');
    const { created, init } = recorder();
    const store = await openStore({ kind: 'pglite', dataDir: dir }, init());
    stores.push(store);
    expect(created).toHaveLength(1);
    expect(existsSync(staging)).toBe(false);
    expect((await readdir(join(dir, '..'))).filter((e) => e.includes('.init-'))).toEqual([]);
  });

  it('leaves no data directory when initialization fails', async () => {
    const dir = await dataDir();
    const interrupted = openStore({ kind: 'pglite', dataDir: dir }, async () => {
      throw new Error('killed');
    });
    await expect(interrupted).rejects.toThrow('killed');
    expect(existsSync(dir)).toBe(false);
    const { created, init } = recorder();
    const store = await openStore({ kind: 'pglite', dataDir: dir }, init());
    stores.push(store);
    expect(created).toHaveLength(1);
  });
});
