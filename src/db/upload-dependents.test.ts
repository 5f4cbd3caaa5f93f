// @vitest-environment node
// Node's Blob survives fake-indexeddb's structured clone; happy-dom's does not.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/send';
import type { Success } from '../contract/envelope';
import { clearLocalData, db } from './database';
import { enqueue, enqueueUpload } from './outbox';
import { retry } from './outbox-conflicts';
import { drain, type OutboxRequest } from './outbox-drain';

// Issue 18: a dish saved offline names the photo taken in its form, whose upload makes the media
// record under that id: the dish waits for the upload as it would for a create.

const PHOTO = '0190d6b0-0000-7000-8000-0000000000f1';
const DISH = '0190d6b0-0000-7000-8000-0000000000d1';
const at = '2026-01-01T10:00:00.000Z';

async function queuePhotoAndDish() {
  const blob = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' });
  await enqueueUpload({ resource: 'media', scope: 'site', entityId: PHOTO, path: '/upload', fields: { _id: PHOTO }, file: { field: 'file', blob, name: 'soup.jpg' }, label: { item: 'file', title: 'soup.jpg' }, fallback: 'Upload failed' });
  await enqueue({ resource: 'gastroItems', entityId: DISH, kind: 'create', method: 'POST', path: '/items', itemPath: `/items/${DISH}`, body: { name: 'Soup', mediaId: PHOTO, _id: DISH }, baseVersion: null, label: { item: 'dish', title: 'Soup' }, fallback: 'Failed to create dish', dependsOn: [`media:${PHOTO}`] });
}

/** A server that answers the photo with `photo` (an error is thrown) and anything else with its record. */
function server(photo: () => unknown) {
  const calls: string[] = [];
  const send = vi.fn(async (request: OutboxRequest): Promise<Success<unknown>> => {
    calls.push(request.path);
    const answer = request.path === '/upload' ? photo() : { _id: DISH, version: 1, createdAt: at, updatedAt: at };
    if (answer instanceof Error) throw answer;
    return { success: true, data: answer };
  });
  return { send, calls };
}

beforeEach(() => clearLocalData());

describe('a record naming a photo that waits to be uploaded', () => {
  it('is not sent while the photo gets no answer, and goes once it is in', async () => {
    await queuePhotoAndDish();
    const lost = server(() => new ApiError('Network error', 0));
    await drain(lost.send);
    expect(lost.calls).toEqual(['/upload', '/upload']);

    await db.outbox.toCollection().modify({ retryAt: undefined });
    const back = server(() => ({ _id: PHOTO, version: 1, createdAt: at, updatedAt: at }));
    await drain(back.send);
    expect(back.calls).toEqual(['/upload', '/items']);
  });

  it('fails with the photo the server refused, and waits for it again when the photo is retried', async () => {
    await queuePhotoAndDish();
    const refused = server(() => new ApiError('The file is too large.', 413));
    await drain(refused.send);
    expect(refused.calls).toEqual(['/upload']);
    const [photo, dish] = await db.outbox.orderBy('seq').toArray();
    expect([photo!.status, dish!.status, dish!.error?.reason]).toEqual(['failed', 'failed', 'parentNotSaved']);

    await retry(photo!.seq!);
    expect((await db.outbox.get(dish!.seq!))?.status).toBe('pending');
  });
});
