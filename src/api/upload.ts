import { z } from 'zod/mini';
import { messages } from '../contract/messages';
import { formData, type FormFile } from './form-data';
import { ApiError, requestData } from './request';
import { uploadError } from './send';

/** What an upload answers: the record it changed (crud/upload.ts) or made (a media file), as the server sends it. */
const UploadedSchema = z.looseObject({ _id: z.string(), version: z.number() });
export type Uploaded = z.infer<typeof UploadedSchema>;

/** The image types the server stores (server/files/images.ts); a phone's camera offers itself for them. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

export interface UploadOptions {
  signal?: AbortSignal;
  /** The record's entity schema (a registry entry's `entity`); any `{ _id, version }` otherwise. */
  entity?: z.core.$ZodType;
  /** Text fields sent beside the file (alt, folder, compressImages). */
  fields?: Record<string, string>;
  /** Sent as Idempotency-Key: when no answer comes, the outbox sends the same request again under it. */
  idempotencyKey?: string;
}

/**
 * Sends one file as multipart (spec §7: a website's preview, the logo, a media file) through the
 * same wire core as every call: bearer token, Accept-Language, the envelope. Spec §8: a refusal
 * carries the server's `error` (or `message`), else "Upload failed", with the HTTP status and the
 * answer as details; no answer at all is the network error (status 0).
 */
export async function uploadFile(path: string, file: FormFile, { signal, entity = UploadedSchema, fields, idempotencyKey }: UploadOptions = {}): Promise<Uploaded> {
  const headers = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined;
  try {
    return (await requestData(path, entity, { method: 'POST', body: formData(fields, [file]), signal, headers, fallback: messages.uploadFailed })) as Uploaded;
  } catch (error) {
    throw error instanceof ApiError ? uploadError(error) : error;
  }
}
