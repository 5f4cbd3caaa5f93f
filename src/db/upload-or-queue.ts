import { i18n } from '@lingui/core';
import { uploadFile, type UploadOptions, type Uploaded } from '../api/upload';
import { ApiError } from '../api/send';
import { messages } from '../contract/messages';
import { UPLOAD_LIMITS } from '../contract/upload-limits';
import { uuidv7 } from '../contract/uuid';
import { enqueueUpload, type NewUpload } from './outbox';
import { requestSync } from './sync';

export type UploadOutcome = { status: 'done'; entity: Uploaded } | { status: 'queued'; seq: number };

/** An image's pixels as the browser reads them, or null when it cannot (the server then decides). */
async function pixelsOf(blob: Blob): Promise<number | null> {
  if (!blob.type.startsWith('image/') || typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(blob);
    const pixels = bitmap.width * bitmap.height;
    bitmap.close();
    return pixels;
  } catch {
    return null;
  }
}

/**
 * A file past the server's limits, refused here in the server's words with the limit it broke
 * (the details UploadFailure lists); no status, since no server was asked.
 */
async function overLimits(blob: Blob): Promise<ApiError | null> {
  const { maxBytes, maxPixels } = UPLOAD_LIMITS;
  if (blob.size > maxBytes) return new ApiError(i18n._(messages.fileTooLarge), 0, { data: { maxBytes } });
  const pixels = await pixelsOf(blob);
  if (pixels !== null && pixels > maxPixels) return new ApiError(i18n._(messages.imageTooManyPixels), 0, { data: { maxPixels } });
  return null;
}

/**
 * One file, sent at once when the device is online, so the person sees the server's answer where
 * they picked it; offline, or when no answer comes, kept in the outbox (its file beside it) and
 * sent when the connection returns. The try at once carries the Idempotency-Key the queued entry
 * then keeps: if the server did get it, the resend answers with the first answer. A file past the
 * server's limits is refused before either, a refusal is thrown (ApiError), a device without room
 * for the file too (NoRoomError).
 *
 * A file that makes a record of its own (the media library's) is kept under a new id of this
 * device's (outbox.ts NewUpload), and sent with it as `_id`: the server makes the record under that
 * id (DESIGN §4), so a record saved meanwhile may name it and waits for it (`dependsOn`).
 */
export async function uploadOrQueue(upload: NewUpload, options: Pick<UploadOptions, 'entity' | 'signal'> = {}): Promise<UploadOutcome> {
  const refused = await overLimits(upload.file.blob);
  if (refused) throw refused;
  const makesRecord = upload.entityId !== upload.path;
  let queued: NewUpload = makesRecord ? { ...upload, fields: { ...upload.fields, _id: upload.entityId } } : upload;
  if (navigator.onLine) {
    const idempotencyKey = uuidv7();
    try {
      return { status: 'done', entity: await uploadFile(queued.path, queued.file, { ...options, fields: queued.fields, idempotencyKey }) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 0) throw error;
      queued = { ...queued, idempotencyKey };
    }
  }
  const seq = await enqueueUpload(queued);
  void requestSync();
  return { status: 'queued', seq };
}
