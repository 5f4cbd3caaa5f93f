import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuidv7 } from '../../contract/uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteOptions } from './pglite';
import * as schema from './schema';
import { migrationsFolder, type Store } from './store';
import { seedUser, seedWebsite } from '../../../tests/support/users';

// Migration 0021: the picture a dish, a slide or a post shows in a list is its thumbnail. Records
// made before it held the picture's own key; they hold their thumbnail's after it, without a
// change anyone made showing up as one.

const MIGRATION = '0021_thumbnail_keys';
const before = mkdtempSync(join(tmpdir(), 'migrations-'));
cpSync(migrationsFolder, before, { recursive: true });
const journalPath = join(before, 'meta', '_journal.json');
const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.tag !== MIGRATION) }));

afterAll(() => rmSync(before, { recursive: true, force: true }));

describe(`migration ${MIGRATION}`, () => {
  it('copies the thumbnail’s key (the picture’s own where it has none) into the records made before, with no revision', async () => {
    expect(journal.entries.some((entry) => entry.tag === MIGRATION)).toBe(true);
    const client = await PGlite.create(pgliteOptions);
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: before });

    const store = { db } as unknown as Store;
    const owner = await seedUser(store, { type: 'user', email: 'owner@migration.test', username: 'owner', password: 'correct horse battery' });
    const websiteId = (await seedWebsite(store, { ownerId: owner.id, name: 'Trattoria' })).id;
    const photo = { websiteId, fileName: 'pizza.webp', mimetype: 'image/webp', size: 10, storageKey: `images/${uuidv7()}.webp`, thumbKey: `images/${uuidv7()}.webp` };
    const [withThumb, withoutThumb] = await db
      .insert(schema.media)
      .values([photo, { ...photo, fileName: 'logo.svg', storageKey: `images/${uuidv7()}.svg`, thumbKey: null }])
      .returning();
    const [menu] = await db.insert(schema.gastroMenus).values({ websiteId, name: 'Speisekarte' }).returning();
    const dishes = await db
      .insert(schema.gastroItems)
      .values([
        { websiteId, menuId: menu!.id, name: 'Pizza', mediaId: withThumb!.id, imageKey: withThumb!.storageKey },
        { websiteId, menuId: menu!.id, name: 'Logo', mediaId: withoutThumb!.id, imageKey: withoutThumb!.storageKey },
        { websiteId, menuId: menu!.id, name: 'Soup' },
      ])
      .returning();
    const [post] = await db.insert(schema.posts).values({ websiteId, title: 'Opening', slug: 'opening', coverMediaId: withThumb!.id, coverKey: withThumb!.storageKey }).returning();
    const revisions = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.revisions))[0]!.n;
    const madeBefore = await revisions();

    await migrate(db, { migrationsFolder });

    const keys = await db.select({ name: schema.gastroItems.name, key: schema.gastroItems.imageKey, version: schema.gastroItems.version }).from(schema.gastroItems);
    expect(Object.fromEntries(keys.map((row) => [row.name, row.key]))).toEqual({ Pizza: withThumb!.thumbKey, Logo: withoutThumb!.storageKey, Soup: null });
    expect(keys.map((row) => row.version)).toEqual(dishes.map((dish) => dish.version));
    const [cover] = await db.select({ key: schema.posts.coverKey }).from(schema.posts).where(eq(schema.posts.id, post!.id));
    expect(cover!.key).toBe(withThumb!.thumbKey);
    // Nobody changed a record: no revision, and the tables' triggers are on again.
    expect(await revisions()).toBe(madeBefore);
    await db.update(schema.gastroItems).set({ name: 'Pizza Margherita' }).where(eq(schema.gastroItems.id, dishes[0]!.id));
    expect(await revisions()).toBe(madeBefore + 1);
    await client.close();
  });
});
