import { describe, expect, it, vi } from 'vitest';
import { categories, types } from '../contract/resources/catalogs';
import { prefetchRecord, readAhead, recordAhead, type ResourceStore } from './resource-store';

const pagination = { currentPage: 1, totalPages: 1, totalItems: 0, itemsPerPage: 10 };
const copy = { value: { items: [], pagination }, fetchedAt: 1 };
const fresh = { items: [], pagination };

function fakeStore() {
  const cachedList = vi.fn(async () => copy);
  const fetchList = vi.fn(async () => fresh);
  return { store: { cachedList, fetchList } as unknown as ResourceStore, cachedList, fetchList };
}

describe('a list read ahead', () => {
  it('starts the device read and the server fetch at once and hands each to the first ask for that list', async () => {
    const { store, cachedList, fetchList } = fakeStore();
    const query = { page: 1, limit: 10, sortBy: 'name', sortOrder: 'asc' } as const;
    const ahead = readAhead(store, categories, query);
    expect(cachedList).toHaveBeenCalledTimes(1);
    expect(fetchList).toHaveBeenCalledTimes(1);

    await expect(ahead.cachedList(categories, { ...query })).resolves.toBe(copy);
    await expect(ahead.fetchList(categories, { ...query })).resolves.toBe(fresh);
    expect(cachedList).toHaveBeenCalledTimes(1);
    expect(fetchList).toHaveBeenCalledTimes(1);

    // Each is handed over once: a later load (after a change, a refresh) asks again.
    await ahead.cachedList(categories, query);
    await ahead.fetchList(categories, query);
    expect(cachedList).toHaveBeenCalledTimes(2);
    expect(fetchList).toHaveBeenCalledTimes(2);
  });

  it('asks anew for another resource or another query', async () => {
    const { store, cachedList } = fakeStore();
    const ahead = readAhead(store, categories, { page: 1, limit: 10 });
    await ahead.cachedList(types, { page: 1, limit: 10 });
    await ahead.cachedList(categories, { page: 2, limit: 10 });
    expect(cachedList).toHaveBeenCalledTimes(3);
  });

  it('tells what is in so far, the server’s answer over this device’s copy, so a screen rendering after it shows it in its first render', async () => {
    const server = { resolve: (_page: typeof fresh) => {}, promise: Promise.resolve(fresh) };
    server.promise = new Promise((resolve) => (server.resolve = resolve));
    const store = { cachedList: vi.fn(async () => copy), fetchList: vi.fn(() => server.promise) } as unknown as ResourceStore;
    const ahead = readAhead(store, categories, { page: 1, limit: 10 });
    expect(ahead.shown()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ahead.shown()).toEqual({ value: copy.value, cachedAt: copy.fetchedAt });
    server.resolve(fresh);
    await server.promise;
    expect(ahead.shown()).toEqual({ value: fresh, cachedAt: null });
  });

  it('tells nothing when the server failed and the device holds no copy', async () => {
    const store = { cachedList: vi.fn(async () => null), fetchList: vi.fn(() => Promise.reject(new Error('offline'))) } as unknown as ResourceStore;
    const ahead = readAhead(store, categories, { page: 1, limit: 10 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ahead.shown()).toBeUndefined();
  });

  it('lets a fetch nobody takes fail quietly', async () => {
    const store = { cachedList: vi.fn(async () => null), fetchList: vi.fn(() => Promise.reject(new Error('offline'))) } as unknown as ResourceStore;
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    readAhead(store, categories, { page: 1, limit: 10 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('a record read ahead', () => {
  const row = { id: 'r1', version: 2 };
  function recordStore() {
    const cachedRecord = vi.fn(async () => ({ value: row, fetchedAt: 1 }));
    const fetchRecord = vi.fn(async () => row);
    return { store: { cachedRecord, fetchRecord } as unknown as ResourceStore, cachedRecord, fetchRecord };
  }

  it('is started by its route before the editor renders, and handed to the editor once, for that record only', async () => {
    const { store, cachedRecord, fetchRecord } = recordStore();
    prefetchRecord(store, categories, 'r1');
    expect(cachedRecord).toHaveBeenCalledTimes(1);
    expect(fetchRecord).toHaveBeenCalledTimes(1);

    const ahead = recordAhead(store, categories, 'r1');
    expect(cachedRecord).toHaveBeenCalledTimes(1);
    await expect(ahead.cachedRecord(categories, 'r1')).resolves.toEqual({ value: row, fetchedAt: 1 });
    await expect(ahead.fetchRecord(categories, 'r1')).resolves.toBe(row);
    expect(cachedRecord).toHaveBeenCalledTimes(1);
    expect(fetchRecord).toHaveBeenCalledTimes(1);

    // A reload asks again; another record is never answered with this one.
    await ahead.fetchRecord(categories, 'r1');
    await ahead.cachedRecord(categories, 'r2');
    expect(fetchRecord).toHaveBeenCalledTimes(2);
    expect(cachedRecord).toHaveBeenLastCalledWith(categories, 'r2');
  });

  it('is started at the editor’s first render when its route did not, and a second editor starts its own', () => {
    const { store, cachedRecord } = recordStore();
    recordAhead(store, categories, 'r3');
    recordAhead(store, categories, 'r3');
    expect(cachedRecord).toHaveBeenCalledTimes(2);
  });
});
