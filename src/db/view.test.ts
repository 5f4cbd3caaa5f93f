import { describe, expect, it } from 'vitest';
import { categories, subcategories } from '../contract/resources/catalogs';
import type { OutboxEntry, WireRow } from './database';
import { applyChange, cacheKey, heldPage, localChanges, matchesQuery } from './view';

const A = '0190d6b0-0000-7000-8000-00000000000a';
const CAT = '0190d6b0-0000-7000-8000-0000000000c1';
const at = '2024-05-01T10:00:00.000Z';
const server: WireRow = { _id: A, version: 2, createdAt: at, updatedAt: at, name: 'Drinks', description: '' };

function entry(seq: number, kind: OutboxEntry['kind'], body: Record<string, unknown> | undefined, status: OutboxEntry['status'] = 'pending'): OutboxEntry {
  return { seq, resource: 'categories', entityId: A, kind, method: 'PUT', path: '', itemPath: '', body, idempotencyKey: `k${seq}`, baseVersion: 2, status, attempts: 0, createdAt: Date.UTC(2024, 5, seq), label: { item: '', title: '' }, fallback: '' };
}

describe('cacheKey', () => {
  it('is the same for a query however it is spelled, and differs when it means something else', () => {
    const key = cacheKey(subcategories, {});
    expect(cacheKey(subcategories, { page: '1', limit: 10, search: '', categoryId: '', sortBy: undefined })).toBe(key);
    expect(cacheKey(subcategories, { categoryId: CAT, page: 1 })).toBe(cacheKey(subcategories, { page: 1, categoryId: CAT }));
    expect(cacheKey(subcategories, { categoryId: CAT })).not.toBe(key);
    expect(cacheKey(categories, {})).not.toBe(key);
  });
});

describe('matchesQuery', () => {
  it('checks the equality filters and the search text over the entry’s search fields', () => {
    const row = { name: 'Red wine', description: 'From Porto', categoryId: CAT };
    expect(matchesQuery(subcategories, row, { categoryId: CAT, search: 'PORTO' })).toBe(true);
    expect(matchesQuery(subcategories, row, { categoryId: A })).toBe(false);
    expect(matchesQuery(subcategories, row, { search: 'beer' })).toBe(false);
    // The id is no search field.
    expect(matchesQuery(subcategories, row, { search: CAT.slice(0, 8) })).toBe(false);
  });
});

describe('localChanges', () => {
  it('folds an entity’s changes in order, up to the first failed one', () => {
    const changes = localChanges([entry(3, 'update', { name: 'Never' }), entry(2, 'update', { name: 'Refused' }, 'failed'), entry(1, 'update', { description: 'Shown' }, 'conflict')]);
    expect(changes.get(A)).toMatchObject({ created: false, deleted: false, values: { description: 'Shown' } });
  });

  it('a delete wins over what came before', () => {
    expect(localChanges([entry(1, 'update', { name: 'x' }), entry(2, 'delete', undefined)]).get(A)?.deleted).toBe(true);
  });
});

describe('applyChange', () => {
  it('lays the change over the server row, with the change’s time as updatedAt and the server’s version', () => {
    const change = localChanges([entry(1, 'update', { name: 'Cold drinks' })]).get(A);
    expect(applyChange(categories, server, change)).toMatchObject({ name: 'Cold drinks', version: 2, updatedAt: '2024-06-01T00:00:00.000Z' });
  });

  it('shows the server row rather than a change that would make it invalid', () => {
    const change = localChanges([entry(1, 'update', { name: '' })]).get(A);
    expect(applyChange(categories, server, change)).toEqual(server);
  });

  it('builds a row created here at version 1', () => {
    const change = localChanges([entry(1, 'create', { _id: A, name: 'New', description: '' })]).get(A);
    expect(applyChange(categories, null, change)).toMatchObject({ _id: A, name: 'New', version: 1 });
  });
});

const [B, C, D] = ['0190d6b0-0000-7000-8000-00000000000b', '0190d6b0-0000-7000-8000-00000000000c', '0190d6b0-0000-7000-8000-00000000000d'];
const sub = (id: string, name: string, categoryId = CAT): WireRow => ({ ...server, _id: id, name, categoryId });
const made = (seq: number, id: string, body: Record<string, unknown> | undefined, kind: OutboxEntry['kind'] = 'create'): OutboxEntry => ({ ...entry(seq, kind, body), resource: 'subcategories', entityId: id });
const names = (page: { items: { name?: unknown }[] }) => page.items.map((row) => row.name);

describe('heldPage', () => {
  const held = [sub(A, 'Wine'), sub(B, 'beer'), sub(C, 'Cider', A)];

  it('is every row held that the query matches, in its order, with the changes made here and not sent', () => {
    const entries = [made(1, D, { _id: D, name: 'Ale', description: '', categoryId: CAT }), made(2, A, undefined, 'delete')];
    expect(names(heldPage(subcategories, {}, held, entries))).toEqual(['Ale', 'beer', 'Cider']);
    expect(names(heldPage(subcategories, { categoryId: CAT, sortBy: 'name', sortOrder: 'desc' }, held, entries))).toEqual(['beer', 'Ale']);
    expect(names(heldPage(subcategories, { search: 'CID' }, held, entries))).toEqual(['Cider']);
  });

  it('answers a query for ids with those ids only, made here or held', () => {
    const entries = [made(1, D, { _id: D, name: 'Ale', description: '', categoryId: CAT })];
    expect(names(heldPage(subcategories, { ids: `${B},${D}` }, held, entries))).toEqual(['Ale', 'beer']);
    expect(heldPage(subcategories, { ids: `${B},${D}` }, held, entries).pagination.totalItems).toBe(2);
  });
});
