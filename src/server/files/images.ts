import { randomUUID } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import { messages } from '../../contract/messages';
import { HttpError } from '../http/errors';

/** An uploaded image's limits: the bytes that arrive, and the pixels they may unpack to (a decompression bomb's are refused). */
export const IMAGE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  /** The stored image fits in this square; larger ones are scaled down. */
  maxEdge: 2400,
};

/** Raster formats a browser shows, told by their bytes. SVG is none of them: it can carry script. */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

/** The whole of one uploaded file; 413 once it passes `maxBytes`. */
export async function readUpload(file: MultipartFile, maxBytes = IMAGE_LIMITS.maxBytes): Promise<Buffer> {
  const data = await file.toBuffer().catch((error: unknown) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, messages.fileTooLarge, { maxBytes });
    throw error;
  });
  if (file.file.truncated || data.length > maxBytes) throw new HttpError(413, messages.fileTooLarge, { maxBytes });
  if (data.length === 0) throw new HttpError(400, messages.fileEmpty);
  return data;
}

/**
 * An uploaded image as it is stored: its type read from its bytes (never from its name or the
 * type the client claimed), decoded within the pixel limit, turned upright, scaled to fit
 * `maxEdge` and written as WebP — which also drops whatever else the file carried (metadata,
 * trailing bytes, a script in a polyglot).
 */
export async function toWebp(data: Buffer, maxEdge = IMAGE_LIMITS.maxEdge): Promise<{ key: string; data: Buffer }> {
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) throw new HttpError(415, messages.imageTypeRefused);
  const { default: sharp } = await import('sharp');
  try {
    const webp = await sharp(data, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { key: `images/${randomUUID()}.webp`, data: webp };
  } catch (error) {
    const text = String((error as Error).message);
    if (/pixel limit/i.test(text)) throw new HttpError(413, messages.imageTooManyPixels, { maxPixels: IMAGE_LIMITS.maxPixels });
    throw new HttpError(415, messages.imageUnreadable);
  }
}
