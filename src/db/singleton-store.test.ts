import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settings } from '../contract/resources/settings';
import { clearLocalData, db, type WireRow } from './database';
import { accept, resourceStore as store } from './device-store';

/**
 * A singleton entry (the installation's settings: `GET`/`PUT /api/settings`, no id in the path)
 * on the store: its one record is asked for without an id, and changes go out with If-Match.
 */
const ID = '0190d6b0-0000-7000-8000-0000000005e1';
const at = '2026-01-01T10:00:00.000Z';

let current: WireRow;
let calls: { method: string; url: string; headers: Headers; body?: Record<string, unknown> }[];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const call = { method: init?.method ?? 'GET', url: String(input), headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
  calls.push(call);
  if (call.url !== '/api/settings') return json({ success: false, message: 'Not found' }, 404);
  if (call.method === 'GET') return json({ success: true, data: current });
  if (call.headers.get('If-Match') !== `"${current.version}"`) return json({ success: false, message: 'Someone else changed the settings in the meantime.', data: current }, 409);
  current = { ...current, ...call.body, version: current.version + 1 };
  return json({ success: true, data: current });
}

beforeEach(async () => {
  await clearLocalData();
  current = { _id: ID, version: 1, createdAt: at, updatedAt: at, cmsName: 'Acme', helpUrl: '', supportUrl: '', defaultLanguage: 'en', mailFrom: '', cmsLogoUrl: null };
  calls = [];
  localStorage.setItem('auth_token', 'tok-1');
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('a singleton’s one record', () => {
  it('is read without an id: from the server at its path, then from this device', async () => {
    expect(await store.cachedRecord(settings, '')).toBeNull();

    const fetched = await store.fetchRecord(settings, '');

    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/settings']);
    expect(fetched).toMatchObject({ id: ID, cmsName: 'Acme', version: 1 });
    expect((await store.cachedRecord(settings, ''))?.value).toMatchObject({ id: ID, cmsName: 'Acme' });
  });

  it('shows a change not yet sent, and sends it to its path with the version it was based on', async () => {
    await store.fetchRecord(settings, '');
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(await store.submit(settings, { kind: 'update', id: ID, values: { cmsName: 'Agentur Nord' }, baseVersion: 1 })).toEqual({ status: 'queued' });
    expect((await store.cachedRecord(settings, ''))?.value).toMatchObject({ cmsName: 'Agentur Nord', pending: true });
    online.mockReturnValue(true);

    const outcome = await store.submit(settings, { kind: 'update', id: ID, values: { helpUrl: 'https://help.example' }, baseVersion: 1 });

    expect(outcome).toMatchObject({ status: 'done', row: { id: ID, cmsName: 'Agentur Nord', helpUrl: 'https://help.example', version: 3 } });
    // In order, each on the version the one before it made.
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.url, call.headers.get('If-Match'), call.body])).toEqual([
      ['/api/settings', '"1"', { cmsName: 'Agentur Nord' }],
      ['/api/settings', '"2"', { helpUrl: 'https://help.example' }],
    ]);
  });

  it('takes an upload’s answer as its copy; an edit still based on the version before continues from it', async () => {
    await store.fetchRecord(settings, '');
    // The logo upload (POST /api/settings/logo) made version 2 on the server and answered it.
    current = { ...current, version: 2, cmsLogoUrl: '/api/files/images/0190d6b0-0000-7000-8000-000000000001.webp' };
    await accept(settings, current);
    expect((await store.cachedRecord(settings, ''))?.value).toMatchObject({ version: 2, cmsLogoUrl: current.cmsLogoUrl });

    const outcome = await store.submit(settings, { kind: 'update', id: ID, values: { cmsName: 'Agentur Nord' }, baseVersion: 1 });

    expect(outcome).toMatchObject({ status: 'done', row: { cmsName: 'Agentur Nord', version: 3 } });
    expect(calls.find((call) => call.method === 'PUT')?.headers.get('If-Match')).toBe('"2"');
  });

  it('never lets an older answer replace a newer copy', async () => {
    await store.fetchRecord(settings, '');
    await accept(settings, { ...current, version: 3, cmsName: 'Newer' });
    await accept(settings, { ...current, version: 2, cmsName: 'Older' });

    expect((await db.records.get(['settings', ID]))?.row).toMatchObject({ version: 3, cmsName: 'Newer' });
    // Not the next version of what was held: someone else's changes may lie between, nothing is ours.
    expect((await db.records.get(['settings', ID]))?.ownFrom).toBeUndefined();
  });
});
