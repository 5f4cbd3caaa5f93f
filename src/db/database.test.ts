// @vitest-environment node
// Node's Blob survives fake-indexeddb's structured clone; happy-dom's does not.
import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { orderTag } from '../contract/order';
import { SCHEMA, SitekeeperDatabase } from './database';

const opened: Dexie[] = [];

function open(name: string, upTo?: number): SitekeeperDatabase {
  const database = new SitekeeperDatabase(name, upTo);
  opened.push(database);
  return database;
}

afterEach(async () => {
  for (const database of opened.splice(0)) {
    database.close();
    await Dexie.delete(database.name);
  }
});

const latest = SCHEMA.at(-1)!.version;
const pagination = { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 10 };
const row = { _id: '0190d6b0-0000-7000-8000-00000000000a', version: 2, name: 'Drinks' };

describe('the database schema', () => {
  it('declares its versions in ascending order, each once', () => {
    const versions = SCHEMA.map((entry) => entry.version);
    expect(versions).toEqual([...new Set(versions)].toSorted((a, b) => a - b));
  });

  it('upgrades a version 1 database to the newest one, keeping its data and completing queued entries', async () => {
    const v1 = open('upgrade-v1', 1);
    await v1.cache.put({ key: 'categories?limit=10&page=1', resource: 'categories', query: { limit: 10, page: 1 }, ids: [row._id], pagination, fetchedAt: 1000 });
    await v1.records.put({ resource: 'categories', id: row._id, row, fetchedAt: 1000 });
    // An entry as version 1 stored it: no status, attempts, item path, label or fallback yet.
    await v1.table('outbox').add({ resource: 'categories', entityId: row._id, kind: 'update', method: 'PUT', path: `/api/categories/${row._id}`, body: { name: 'Cold drinks' }, idempotencyKey: 'k-1', baseVersion: 2, createdAt: 2000 });
    await v1.meta.put({ key: 'session', token: 'tok-1', language: 'de', base: '' });
    v1.close();

    const current = open('upgrade-v1');
    await current.open();

    expect(current.verno).toBe(latest);
    expect(await current.cache.get('categories?limit=10&page=1')).toMatchObject({ ids: [row._id], fetchedAt: 1000 });
    expect(await current.records.get(['categories', row._id])).toMatchObject({ row });
    expect(await current.meta.get('session')).toEqual({ key: 'session', token: 'tok-1', language: 'de', base: '' });
    const [entry] = await current.outbox.toArray();
    expect(entry).toMatchObject({
      seq: 1,
      idempotencyKey: 'k-1',
      body: { name: 'Cold drinks' },
      status: 'pending',
      attempts: 0,
      itemPath: `/api/categories/${row._id}`,
      label: { item: 'categories', title: '' },
      fallback: '',
    });
    // The indexes the newest version added answer queries over the old rows.
    expect(await current.outbox.where('status').equals('pending').count()).toBe(1);
    expect(await current.cache.where('fetchedAt').above(500).count()).toBe(1);
  });

  it('upgrades a version 2 outbox: its entries keep everything but the attempts counted before back-off existed', async () => {
    const v2 = open('upgrade-v2', 2);
    const entry = { resource: 'categories', entityId: row._id, kind: 'update', method: 'PUT', path: '/p', itemPath: '/p', idempotencyKey: 'k-2', baseVersion: 2, status: 'pending', attempts: 7, createdAt: 2000, label: { item: 'category', title: '' }, fallback: '' };
    await v2.table('outbox').add({ ...entry });
    v2.close();

    const current = open('upgrade-v2');
    const [upgraded] = await current.outbox.toArray();
    expect(upgraded).toEqual({ ...entry, seq: 1, attempts: 0 });
    // The index the replay finds dependents with answers over old and new rows.
    await current.outbox.add({ ...entry, idempotencyKey: 'k-3', dependsOn: ['categories:a'] } as never);
    expect((await current.outbox.where('dependsOn').equals('categories:a').toArray()).map((e) => e.idempotencyKey)).toEqual(['k-3']);
  });

  it('keeps counting sequence numbers where version 1 stopped', async () => {
    const v1 = open('upgrade-seq', 1);
    await v1.table('outbox').bulkAdd([{ resource: 'a' }, { resource: 'b' }]);
    v1.close();

    const current = open('upgrade-seq');
    const seq = await current.outbox.add({ resource: 'c' } as never);
    expect(seq).toBe(3);
  });
});

describe('the version 4 upgrade', () => {
  it('keeps a version 3 outbox, gives an old reorder an order no server holds, and keeps files as blobs', async () => {
    const v3 = open('upgrade-v3', 3);
    const entry = { resource: 'menuItems', entityId: 'order:m-1', kind: 'reorder', method: 'PUT', path: '/p', itemPath: '/p', body: { items: ['a', 'b'] }, idempotencyKey: 'k-4', baseVersion: null, status: 'pending', attempts: 0, createdAt: 2000, label: { item: 'menu items', title: '' }, fallback: '' };
    await v3.table('outbox').bulkAdd([{ ...entry }, { ...entry, kind: 'update', entityId: 'a', idempotencyKey: 'k-5' }]);
    v3.close();

    const current = open('upgrade-v3');
    const [reorder, update] = await current.outbox.orderBy('seq').toArray();
    expect(reorder).toEqual({ ...entry, seq: 1, baseOrder: orderTag([]) });
    expect(update).not.toHaveProperty('baseOrder');

    await current.files.add({ seq: 2, field: 'file', name: 'logo.png', blob: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }) });
    const [file] = await current.files.where('seq').equals(2).toArray();
    expect([file!.name, file!.blob.type, new Uint8Array(await file!.blob.arrayBuffer())]).toEqual(['logo.png', 'image/png', new Uint8Array([1, 2, 3])]);
  });
});
