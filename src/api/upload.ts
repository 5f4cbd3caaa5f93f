import { z } from 'zod/mini';
import { messages } from '../contract/messages';
import { ApiError, requestData } from './request';

/** What an image upload answers (crud.ts `upload`): the record it changed, as the server sends it. */
const UploadedSchema = z.looseObject({ _id: z.string(), version: z.number() });
export type Uploaded = z.infer<typeof UploadedSchema>;

/** The image types the server stores (server/files/images.ts); a phone's camera offers itself for them. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

interface UploadOptions {
  signal?: AbortSignal;
  /** The record's entity schema (a registry entry's `entity`); any `{ _id, version }` otherwise. */
  entity?: z.core.$ZodType;
}

/**
 * Sends one file as the multipart field `file` (spec §7: a website's preview, the logo) through
 * the same wire core as every call: bearer token, Accept-Language, the envelope. Spec §8: a
 * refusal carries the server's `error` (or `message`), else "Upload failed", with the HTTP status
 * and the answer as details; no answer at all is the network error (status 0).
 *
 * Sent at once, not through the outbox: uploading offline is for a later release, so the caller
 * says so instead of queueing. No Idempotency-Key: the key is optional (DESIGN §4), and a retry
 * here is a new upload the person asked for.
 */
export async function uploadFile(path: string, file: Blob, { signal, entity = UploadedSchema }: UploadOptions = {}): Promise<Uploaded> {
  const body = new FormData();
  body.append('file', file);
  try {
    return (await requestData(path, entity, { method: 'POST', body, signal, fallback: messages.uploadFailed })) as Uploaded;
  } catch (error) {
    const said = error instanceof ApiError ? (error.details as { error?: unknown } | undefined)?.error : undefined;
    if (error instanceof ApiError && typeof said === 'string' && said) throw new ApiError(said, error.status, error.details);
    throw error;
  }
}
