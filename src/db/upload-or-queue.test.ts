import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/send';
import { UPLOAD_LIMITS } from '../contract/upload-limits';
import { keepBlobs } from './blobs.test-support';
import { clearLocalData, db } from './database';
import type { NewUpload } from './outbox';
import { uploadOrQueue } from './upload-or-queue';

const WEBSITE = '0190d6b0-0000-7000-8000-0000000000a1';
const PHOTO = '0190d6b0-0000-7000-8000-0000000000f1';
const PATH = `/api/cms/media/${WEBSITE}/upload`;

const photo = (size = 4) => new File([new Uint8Array(size)], 'dish.jpg', { type: 'image/jpeg' });

function upload(file: File, over: Partial<NewUpload> = {}): NewUpload {
  return {
    resource: 'media',
    scope: WEBSITE,
    entityId: PHOTO,
    path: PATH,
    fields: { compressImages: 'true' },
    file: { field: 'file', blob: file, name: file.name },
    label: { item: 'file', title: file.name },
    fallback: 'Upload failed',
    ...over,
  };
}

const fetchMock = vi.fn<typeof fetch>();
const sentFields = (call = 0) => Object.fromEntries([...(fetchMock.mock.calls[call]![1]!.body as FormData).entries()].filter(([, value]) => typeof value === 'string'));

beforeEach(async () => {
  await clearLocalData();
  keepBlobs();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  // A browser that cannot read the image leaves its pixels to the server.
  vi.stubGlobal('createImageBitmap', () => Promise.reject(new Error('not an image')));
});
afterEach(() => vi.restoreAllMocks());

describe('a file that makes a record of its own', () => {
  it('online, is sent with the id it is kept under, which the server makes its record under; a record’s own image names none', async () => {
    const made = { _id: PHOTO, version: 1, fileName: 'dish.jpg' };
    fetchMock
      .mockResolvedValueOnce(new Response(JSON.stringify({ success: true, data: made }), { status: 201 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ success: true, data: { _id: WEBSITE, version: 2 } })));

    expect(await uploadOrQueue(upload(photo()))).toEqual({ status: 'done', entity: made });
    await uploadOrQueue(upload(photo(), { resource: 'settings', scope: undefined, entityId: '/api/settings/logo', path: '/api/settings/logo', fields: undefined }));

    expect([sentFields(0), sentFields(1)]).toEqual([{ compressImages: 'true', _id: PHOTO }, {}]);
  });

  it('offline, is kept with that id among its fields, so a record saved meanwhile can name it', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);

    const outcome = await uploadOrQueue(upload(photo()));

    expect(outcome.status).toBe('queued');
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'upload', resource: 'media', entityId: PHOTO, body: { compressImages: 'true', _id: PHOTO } }]);
  });
});

describe('a file past the server’s limits', () => {
  it('is refused in the server’s words before it is sent or kept, with the size it may have', async () => {
    for (const online of [true, false]) {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
      const refusal = await uploadOrQueue(upload(photo(UPLOAD_LIMITS.maxBytes + 1))).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({ message: 'The file is too large.', status: 0, details: { data: { maxBytes: UPLOAD_LIMITS.maxBytes } } });
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await db.outbox.count()).toBe(0);
  });

  it('is refused when the image has more pixels than the server unpacks, and one just within is kept', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const close = vi.fn();
    const bitmap = vi.fn().mockResolvedValueOnce({ width: 8000, height: 6000, close }).mockResolvedValueOnce({ width: 8000, height: 5000, close });
    vi.stubGlobal('createImageBitmap', bitmap);

    await expect(uploadOrQueue(upload(photo()))).rejects.toMatchObject({ message: 'This image has too many pixels.', details: { data: { maxPixels: UPLOAD_LIMITS.maxPixels } } });
    expect(await db.outbox.count()).toBe(0);
    expect((await uploadOrQueue(upload(photo()))).status).toBe('queued');
    expect(close).toHaveBeenCalledTimes(2);
  });
});
