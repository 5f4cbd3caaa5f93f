import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { subcategories } from '../contract/resources/catalogs';
import { queryString } from './paths';
import { resourceApi } from './resource';
import { ApiError } from './send';

const fetchMock = vi.fn<typeof fetch>();
const ID = '0190d6b0-0000-7000-8000-00000000000a';
const CATEGORY = '0190d6b0-0000-7000-8000-0000000000c1';
const at = '2024-05-01T10:00:00.000Z';
const entity = { _id: ID, version: 4, createdAt: at, updatedAt: at, name: 'Wine', description: '', categoryId: CATEGORY };
const pagination = { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 10 };

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const url = () => String(fetchMock.mock.calls[0]?.[0]);

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('auth_token', 'tok-1');
});

afterEach(() => {
  fetchMock.mockReset();
  localStorage.clear();
});

describe('resourceApi', () => {
  it('lists from the entry’s path, leaving empty query values out, the entities as sent for the cache', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: [entity], pagination }));

    const page = await resourceApi(subcategories).list({ page: 2, limit: 10, search: '', categoryId: CATEGORY, sortBy: undefined });

    expect(url()).toBe(`/api/subcategories?page=2&limit=10&categoryId=${CATEGORY}`);
    expect(page).toEqual({ entities: [entity], pagination });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it('fails with "Failed to load {items}" when the server names no reason', async () => {
    fetchMock.mockResolvedValue(json({ success: false }, 500));

    const error = await resourceApi(subcategories).list({}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Failed to load subcategories');
  });

  it('says it in the interface language', async () => {
    i18n.loadAndActivate({ locale: 'de', messages: { 'resource.loadFailed': 'Fehler beim Laden: {items}', 'resource.subcategories': 'Unterkategorien' } });
    fetchMock.mockResolvedValue(json({ success: false }, 500));

    await expect(resourceApi(subcategories).list({})).rejects.toThrow('Fehler beim Laden: Unterkategorien');
  });

  it('refuses a list whose rows do not have the entity’s shape', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: [{ ...entity, version: 'x' }], pagination }));

    await expect(resourceApi(subcategories).list({})).rejects.toThrow('Failed to load subcategories');
  });

  it('keeps a row the schema refuses but that is a row (a text stored before its limit existed) beside the others', async () => {
    const long = { ...entity, _id: CATEGORY, name: 'x'.repeat(1000) };
    fetchMock.mockResolvedValue(json({ success: true, data: [entity, long], pagination: { ...pagination, totalItems: 2 } }));

    expect((await resourceApi(subcategories).list({})).entities).toEqual([entity, long]);
  });

  it('gets one entity from the item path', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: entity }));

    const row = await resourceApi(subcategories).get(ID);
    expect(url()).toBe(`/api/subcategories/${ID}`);
    expect(row).toEqual(entity);
  });

  it('refuses an entity of another shape with "Failed to load {items}"', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: { ...entity, version: 'x' } }));

    await expect(resourceApi(subcategories).get(ID)).rejects.toThrow('Failed to load subcategories');
  });
});

describe('queryString', () => {
  it('is empty without values', () => {
    expect(queryString({ search: '', page: undefined })).toBe('');
  });
});
