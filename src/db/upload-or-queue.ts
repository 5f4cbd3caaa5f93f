import { uploadFile, type UploadOptions, type Uploaded } from '../api/upload';
import { ApiError } from '../api/send';
import { uuidv7 } from '../contract/uuid';
import { enqueueUpload, type NewUpload } from './outbox';
import { requestSync } from './sync';

export type UploadOutcome = { status: 'done'; entity: Uploaded } | { status: 'queued'; seq: number };

/**
 * One file, sent at once when the device is online, so the person sees the server's answer where
 * they picked it; offline, or when no answer comes, kept in the outbox (its file beside it) and
 * sent when the connection returns. The try at once carries the Idempotency-Key the queued entry
 * then keeps: if the server did get it, the resend answers with the first answer. A refusal is
 * thrown (ApiError), a device without room for the file too (NoRoomError).
 */
export async function uploadOrQueue(upload: NewUpload, options: Pick<UploadOptions, 'entity' | 'signal'> = {}): Promise<UploadOutcome> {
  let queued = upload;
  if (navigator.onLine) {
    const idempotencyKey = uuidv7();
    try {
      return { status: 'done', entity: await uploadFile(upload.path, upload.file, { ...options, fields: upload.fields, idempotencyKey }) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 0) throw error;
      queued = { ...upload, idempotencyKey };
    }
  }
  const seq = await enqueueUpload(queued);
  void requestSync();
  return { status: 'queued', seq };
}
