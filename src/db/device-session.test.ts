import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveSession } from '../api/session';
import { ADA } from '../api/user.test-support';
import { db, writeSessionMeta } from './database';
import { keepDeviceDataWithSession } from './device-session';

keepDeviceDataWithSession();

const USER = ADA;

afterEach(() => {
  localStorage.clear();
});

describe('the session and the device’s data', () => {
  it('clearSession empties every Dexie table: cache, records, outbox, meta', async () => {
    saveSession('tok-1', USER);
    await db.cache.put({ key: 'k', resource: 'categories', query: {}, ids: [], pagination: { currentPage: 1, totalPages: 1, totalItems: 0, itemsPerPage: 10 }, fetchedAt: 1 });
    await db.records.put({ resource: 'categories', id: 'a', row: { _id: 'a', version: 1 }, fetchedAt: 1 });
    await db.outbox.add({ resource: 'categories', entityId: 'a' } as never);
    await writeSessionMeta({ token: 'tok-1', language: 'en', base: '' });

    clearSession();

    await vi.waitFor(async () =>
      expect(await Promise.all([db.cache.count(), db.records.count(), db.outbox.count(), db.meta.count()])).toEqual([0, 0, 0, 0]),
    );
  });
});

const unsent = () => db.outbox.add({ resource: 'categories', entityId: 'a' } as never);

describe('a session the server rejected', () => {
  it('keeps the user’s unsent changes for their next sign-in, and drops the cached data', async () => {
    saveSession('tok-1', USER);
    await db.records.put({ resource: 'categories', id: 'a', row: { _id: 'a', version: 1 }, fetchedAt: 1 });
    await unsent();

    clearSession({ rejected: true });
    await vi.waitFor(async () => expect(await db.records.count()).toBe(0));
    expect(await db.outbox.count()).toBe(1);

    saveSession('tok-2', USER);
    await vi.waitFor(async () => expect(await db.meta.get('unsentOwner')).toBeUndefined());
    expect(await db.outbox.count()).toBe(1);
  });

  it('starts a sign-in from an empty cache: what a late answer of the last session wrote is not shown', async () => {
    await db.records.put({ resource: 'websites', id: 'w-1', row: { _id: 'w-1' } } as never);
    saveSession('tok-4', USER);
    await vi.waitFor(async () => expect(await db.records.count()).toBe(0));
  });

  it('never sends them with another user’s token: that user’s sign-in drops them', async () => {
    saveSession('tok-1', USER);
    await unsent();
    clearSession({ rejected: true });
    await vi.waitFor(async () => expect(await db.meta.get('unsentOwner')).toBeDefined());

    saveSession('tok-3', { ...USER, id: '0190a000-0000-7000-8000-0000000000ff' });
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });
});
