import { afterEach, describe, expect, it, vi } from 'vitest';
import { categories } from '../contract/resources/catalogs';

/**
 * A first visit on a device: the database does not exist yet, and making it (~80 ms on a cold
 * Chromium profile) holds nothing a fetched list could need. Each case loads the data layer
 * afresh, as a page load does.
 */
const row = { _id: '0190d6b0-0000-7000-8000-000000000001', version: 1, createdAt: '2024-05-01T10:00:00.000Z', updatedAt: '2024-05-01T10:00:00.000Z', name: 'Food', description: '' };
const answer = { success: true, data: [row], pagination: { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 10 } };
const query = { page: 1, limit: 10 };

afterEach(() => {
  localStorage.clear();
  vi.doUnmock('./database');
});

describe('a first visit', () => {
  it('knows the database is still being made until it has opened once on this device', async () => {
    localStorage.clear();
    vi.resetModules();
    const { db, stillCreating } = await import('./database');
    expect(stillCreating()).toBe(true);
    await db.open();
    expect(stillCreating()).toBe(false);
    expect(localStorage.getItem('sitekeeper-db-opened')).toBe('1');

    vi.resetModules();
    const again = await import('./database');
    expect(again.stillCreating()).toBe(false);
  });

  it('shows its first list without waiting for the database, and keeps the page once it can', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(answer), { status: 200 }));
    vi.resetModules();
    // Still being made until the test says it is ready.
    let creating = true;
    vi.doMock('./database', async (original) => ({ ...(await original<typeof import('./database')>()), stillCreating: () => creating }));
    const { db } = await import('./database');
    const { resourceStore } = await import('./device-store');
    await db.open();

    // The cache is busy (as while it is being made): a list that waited for it would never show.
    const gate = { released: false };
    const busy = db.transaction('rw', db.cache, async () => {
      while (!gate.released) await db.cache.get('nothing');
    });
    const page = await resourceStore.fetchList(categories, query);
    expect(page.items.map((item) => item.name)).toEqual(['Food']);
    // Nothing is held while it is being made: asked then, the device answers so at once.
    expect(await resourceStore.cachedList(categories, query)).toBeNull();
    gate.released = true;
    await busy;
    creating = false;
    await vi.waitFor(async () => expect((await resourceStore.cachedList(categories, query))?.value.items.map((item) => item.name)).toEqual(['Food']));
  });
});
