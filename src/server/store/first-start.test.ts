// @vitest-environment node
import { verify } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenFor } from '../../../tests/support/auth';
import { createPgDatabase, createTestStore, storeKinds } from '../../../tests/support/store';
import { hashPassword } from '../auth/passwords';
import { firstSignInFile, firstStart, pendingFirstSignIn, type FirstAdmin, type FirstStartOptions } from './first-start';
import { openStore, type Db, type Store } from './open';
import { DEMO_MEMBER_EMAIL } from './demo';
import { appSettings, categories, cmsPages, contactForms, gastroAllergens, gastroItems, gastroMenus, languages, menuItems, posts, seo, settings, subcategories, teamRoles, types, users, websites } from './schema';

const stores: Store[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

type Options = Omit<FirstStartOptions, 'dataDir'>;

/** First starts into one data directory of their own, and what each told main it created. */
function recorder() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sk-first-'));
  dirs.push(dataDir);
  const created: FirstAdmin[] = [];
  return { created, dataDir, init: (opts: Options = { adminEmail: null, adminPassword: null, demo: false }) => firstStart({ ...opts, dataDir }, (a) => created.push(a)) };
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
    const { created, init, dataDir } = recorder();
    const store = await createTestStore(kind, init({ adminEmail: 'boss@agency.test', adminPassword: 'correct horse battery', demo: false }));
    stores.push(store);
    expect(created).toEqual([{ email: 'boss@agency.test', username: 'admin', generatedPassword: null, demoOwner: null }]);
    // Nothing generated, nothing to keep.
    expect(existsSync(firstSignInFile(dataDir))).toBe(false);
    // The footer's Support link leads to the first admin until the settings name another.
    const [settingsRow] = await store.db.select().from(appSettings);
    expect(settingsRow!.supportUrl).toBe('mailto:boss@agency.test');
    const [admin] = await store.db.select().from(users).where(eq(users.email, 'boss@agency.test'));
    expect(await verify(admin!.passwordHash, 'correct horse battery')).toBe(true);
  });

  it('keeps the generated passwords in DATA_DIR, readable by its owner alone, on every start until each account signs in', async () => {
    const { created, init, dataDir } = recorder();
    const store = await createTestStore(kind, init({ adminEmail: null, adminPassword: null, demo: true }));
    stores.push(store);
    const file = firstSignInFile(dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [first] = created;
    expect(first!.demoOwner).not.toBeNull();
    // A start killed after the commit, before it printed anything: every next start finds them.
    expect(await pendingFirstSignIn(store.db, dataDir)).toEqual(first);
    expect(await pendingFirstSignIn(store.db, dataDir)).toEqual(first);
    // In the database only as hashes.
    const stored = JSON.stringify([await store.db.select().from(users), await store.db.select().from(settings)]);
    expect(stored).not.toContain(first!.generatedPassword);
    expect(stored).not.toContain(first!.demoOwner!.password);

    const id = async (email: string) => (await store.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
    await tokenFor(store, await id(first!.email));
    expect(await pendingFirstSignIn(store.db, dataDir)).toEqual({ ...first, generatedPassword: null });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...first, generatedPassword: null });
    await tokenFor(store, await id(first!.demoOwner!.email));
    expect(await pendingFirstSignIn(store.db, dataDir)).toBeNull();
    expect(existsSync(file)).toBe(false);
  });

  it('forgets a kept password that no longer signs in to its account', async () => {
    const { created, init, dataDir } = recorder();
    const store = await createTestStore(kind, init());
    stores.push(store);
    await store.db.update(users).set({ passwordHash: await hashPassword('changed by hand') }).where(eq(users.email, created[0]!.email));
    expect(await pendingFirstSignIn(store.db, dataDir)).toBeNull();
    expect(existsSync(firstSignInFile(dataDir))).toBe(false);
  });

  it('has the passwords on disk before the accounts commit: killed in between, the next start makes new ones and replaces the file', async () => {
    const { created, init, dataDir } = recorder();
    const store = await createTestStore(kind);
    stores.push(store);
    // The commit never comes: the transaction ends as a killed process's does, rolled back.
    const killedBeforeCommit = Object.create(store.db, {
      transaction: { value: (work: (tx: unknown) => Promise<unknown>) => store.db.transaction(async (tx) => Promise.reject(new Error('killed', { cause: await work(tx) }))) },
    }) as Db;
    await expect(init()(killedBeforeCommit)).rejects.toThrow('killed');
    const orphan = JSON.parse(await readFile(firstSignInFile(dataDir), 'utf8')) as FirstAdmin;
    expect(orphan.generatedPassword).toEqual(expect.any(String));
    expect(await store.db.select().from(users)).toEqual([]);
    expect(created).toEqual([]);

    await init()(store.db);
    expect(created).toHaveLength(1);
    expect(created[0]!.generatedPassword).not.toBe(orphan.generatedPassword);
    expect(await pendingFirstSignIn(store.db, dataDir)).toEqual(created[0]);
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

async function storeDir() {
  const dir = await mkdtemp(join(tmpdir(), 'sk-data-'));
  dirs.push(dir);
  return join(dir, 'db');
}

// Each opens a data directory of its own, migrated from nothing (not a copy of the shared image), often twice.
describe('first start on an embedded data directory', { timeout: 90_000 }, () => {
  it('keeps its data across restarts and creates no second admin', async () => {
    const dir = await storeDir();
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
    const dir = await storeDir();
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
    const dir = await storeDir();
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
