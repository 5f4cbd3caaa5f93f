// @vitest-environment node
// Node's Blob survives fake-indexeddb's structured clone; happy-dom's does not.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/send';
import type { Success } from '../contract/envelope';
import { clearLocalData, db, SitekeeperDatabase, type WireRow } from './database';
import { enqueue, enqueueUpload, type NewUpload } from './outbox';
import { discard } from './outbox-conflicts';
import { drain, type OutboxRequest } from './outbox-drain';
import { NoRoomError, SPARE_BYTES } from './storage-room';

const WEBSITE = '0190d6b0-0000-7000-8000-0000000000a1';
const SETTINGS = '0190d6b0-0000-7000-8000-00000000005e';
const PATH = `/api/cms/media/${WEBSITE}/upload`;

const photo = (bytes = [1, 2, 3, 4]) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });

function mediaUpload(entityId: string, over: Partial<NewUpload> = {}): NewUpload {
  return {
    resource: 'media',
    scope: WEBSITE,
    entityId,
    path: PATH,
    fields: { folder: 'menu', compressImages: 'true' },
    file: { field: 'file', blob: photo(), name: 'dish.jpg' },
    label: { item: 'file', title: 'dish.jpg' },
    fallback: 'Upload failed',
    ...over,
  };
}

function logoUpload(blob = photo()): NewUpload {
  return { resource: 'settings', entityId: '/api/settings/logo', path: '/api/settings/logo', file: { field: 'file', blob, name: 'logo.png' }, label: { item: 'logo', title: '' }, fallback: 'Upload failed' };
}

const at = '2024-05-01T10:00:00.000Z';
const mediaRow = (id: string, version = 1): WireRow => ({ _id: id, version, createdAt: at, updatedAt: at, fileName: 'dish.jpg', folder: 'menu' });

/** A server in a function: records each call with its form read out, answers with what `answer` says. */
function server(answer: (call: OutboxRequest, index: number) => unknown) {
  const calls: { call: OutboxRequest; fields: Record<string, string>; files: { field: string; name: string; bytes: number[] }[] }[] = [];
  const send = vi.fn(async (call: OutboxRequest): Promise<Success<unknown>> => {
    const form = call.body as FormData;
    const fields: Record<string, string> = {};
    const files: { field: string; name: string; bytes: number[] }[] = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else files.push({ field: name, name: value.name, bytes: [...new Uint8Array(await value.arrayBuffer())] });
    }
    calls.push({ call, fields, files });
    const result = answer(call, calls.length - 1);
    if (result instanceof Error) throw result;
    return { success: true, data: result };
  });
  return { send, calls };
}

const offline = new ApiError('Network error or server unavailable', 0, new TypeError('Failed to fetch'));

beforeEach(async () => {
  await clearLocalData();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('an upload in the outbox', () => {
  it('is kept with its file, and both are there for the next connection (the app closed and opened again)', async () => {
    const seq = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000101'));

    const reopened = new SitekeeperDatabase();
    try {
      const [entry] = await reopened.outbox.toArray();
      expect(entry).toMatchObject({ seq, kind: 'upload', method: 'POST', path: PATH, status: 'pending', baseVersion: null, body: { folder: 'menu', compressImages: 'true' } });
      const [file] = await reopened.files.where('seq').equals(seq).toArray();
      expect([file!.field, file!.name, [...new Uint8Array(await file!.blob.arrayBuffer())]]).toEqual(['file', 'dish.jpg', [1, 2, 3, 4]]);
    } finally {
      reopened.close();
    }
  });

  it('is sent once as multipart with its key; the answer becomes a record of this device’s own and the file is let go', async () => {
    const id = '0190d6b0-0000-7000-8000-0000000001aa';
    const seq = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000102'));
    const key = (await db.outbox.get(seq))!.idempotencyKey;
    // The first answer is lost on the way: the same request goes again, under the same key.
    const { send, calls } = server((_call, index) => (index === 0 ? offline : mediaRow(id)));

    expect(await drain(send)).toMatchObject({ sent: 1, stopped: null });
    await drain(send);

    expect(calls).toHaveLength(2);
    for (const { call, fields, files } of calls) {
      expect([call.method, call.path, call.headers['Idempotency-Key'], call.headers['If-Match']]).toEqual(['POST', PATH, key, undefined]);
      expect(fields).toEqual({ folder: 'menu', compressImages: 'true' });
      expect(files).toEqual([{ field: 'file', name: 'dish.jpg', bytes: [1, 2, 3, 4] }]);
    }
    expect([await db.outbox.count(), await db.files.count()]).toEqual([0, 0]);
    // A record made here: list pages fetched before show it (device-store.ts readPage).
    const record = await db.records.get(['media', id]);
    expect(record).toMatchObject({ scope: WEBSITE, row: mediaRow(id), ownFrom: 1 });
    expect(record?.createdLocally).toBeGreaterThan(0);
  });

  it('takes the key of a try that got no answer, so the server can recognise it', async () => {
    const seq = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000103', { idempotencyKey: '0190d6b0-0000-7000-8000-00000000beef' }));
    expect((await db.outbox.get(seq))!.idempotencyKey).toBe('0190d6b0-0000-7000-8000-00000000beef');
  });

  it('a new image of a record: its answer replaces the cached record, and edits queued on the version it replaced continue from it', async () => {
    const settings = (version: number, cmsLogoUrl: string | null): WireRow => ({ _id: SETTINGS, version, createdAt: at, updatedAt: at, cmsName: 'Nord', cmsLogoUrl });
    await db.records.put({ resource: 'settings', scope: '', id: SETTINGS, row: settings(3, null), fetchedAt: 1 });
    await enqueueUpload(logoUpload());
    await enqueue({ resource: 'settings', entityId: SETTINGS, kind: 'update', method: 'PUT', path: '/api/settings', itemPath: '/api/settings', body: { cmsName: 'Süd' }, baseVersion: 3, label: { item: 'settings', title: '' }, fallback: 'Failed' });
    const edits: OutboxRequest[] = [];
    const { send, calls } = server(() => settings(4, '/api/files/images/new.webp'));

    await drain(async (call) => {
      if (call.body instanceof FormData) return send(call);
      edits.push(call);
      return { success: true, data: settings(5, '/api/files/images/new.webp') };
    });

    expect(calls).toHaveLength(1);
    expect(edits.map((call) => call.headers['If-Match'])).toEqual(['"4"']);
    const record = await db.records.get(['settings', SETTINGS]);
    expect(record).toMatchObject({ row: { version: 5 } });
    expect(record?.createdLocally).toBeUndefined();
  });

  it('is never folded: a newer file for the same place replaces the unsent one whole, and a refused one stays as it was', async () => {
    await enqueueUpload(logoUpload(photo([1])));
    await enqueueUpload(logoUpload(photo([2, 2])));
    const [entry, ...others] = await db.outbox.toArray();
    expect(others).toEqual([]);
    const files = await db.files.toArray();
    expect(files.map((file) => file.seq)).toEqual([entry!.seq]);
    expect(files[0]!.blob.size).toBe(2);

    // Refused, with the limit it broke; spec §8: the answer's `error` is the reason shown.
    const refusal = new ApiError('Request failed', 413, { success: false, error: 'The file is too large.', message: 'Request failed', data: { maxBytes: 10 } });
    await drain(server(() => refusal).send);
    const failed = (await db.outbox.get(entry!.seq!))!;
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'The file is too large.', status: 413, data: { maxBytes: 10 } } });

    const mediaSeq = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000104'));
    expect(await db.outbox.get(entry!.seq!)).toEqual(failed);
    expect((await db.outbox.get(mediaSeq))!.body).toEqual({ folder: 'menu', compressImages: 'true' });
  });

  it('a refused upload can be discarded, and its file goes with it', async () => {
    const seq = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000105'));
    await drain(server(() => new ApiError('Only JPEG, PNG, WebP, GIF and AVIF images and PDF files can be uploaded.', 415, {})).send);
    expect((await db.outbox.get(seq))!.status).toBe('failed');

    await discard(seq);

    expect([await db.outbox.count(), await db.files.count()]).toEqual([0, 0]);
  });
});

/** A browser's storage as it reports itself. */
function device(quota: number, usage: number, persisted = false) {
  const storage = { persisted: vi.fn(async () => persisted), persist: vi.fn(async () => true), estimate: vi.fn(async () => ({ quota, usage })) };
  vi.stubGlobal('navigator', { storage });
  return storage;
}

describe('room on the device', () => {
  it('asks for persistent storage before keeping a file, once it is not granted yet', async () => {
    const storage = device(1e9, 0);
    await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000106'));
    expect(storage.persist).toHaveBeenCalledOnce();

    const granted = device(1e9, 0, true);
    await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000107'));
    expect(granted.persist).not.toHaveBeenCalled();
  });

  it('refuses a file the device has no room for, and keeps nothing', async () => {
    const blob = photo(Array.from({ length: 1000 }, () => 7));
    device(100 * 1024 * 1024, 100 * 1024 * 1024 - SPARE_BYTES - 999);

    const refused = await enqueueUpload(mediaUpload('0190d6b0-0000-7000-8000-000000000108', { file: { field: 'file', blob, name: 'big.jpg' } })).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(NoRoomError);
    expect(refused).toMatchObject({ needed: 1000, available: SPARE_BYTES + 999 });
    expect([await db.outbox.count(), await db.files.count()]).toEqual([0, 0]);
  });
});
