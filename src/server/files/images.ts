import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { UPLOAD_LIMITS } from '../../contract/upload-limits';
import { HttpError } from '../http/errors';
import { newFileKey } from './storage';

/** An uploaded image's limits: the bytes that arrive, and the pixels they may unpack to (a decompression bomb's are refused). */
export const IMAGE_LIMITS = {
  ...UPLOAD_LIMITS,
  /** The stored image fits in this square; larger ones are scaled down. */
  maxEdge: 2400,
};

/**
 * Raster formats a browser shows, told by their bytes, and the extension each is stored under.
 * SVG is none of them: it can carry script.
 */
export const IMAGE_TYPES: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/avif': 'avif' };

/** What the bytes are, by their content alone: never the name or the type a client claimed. */
export async function sniff(data: Buffer): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(data))?.mime;
}

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
 * A multipart upload read to its end before anything is kept, so a form cut off after its file
 * stores nothing: each file whole (413 past the limit, 400 when empty), and the text fields.
 */
export async function readForm(request: FastifyRequest, maxFiles: number, maxBytes = IMAGE_LIMITS.maxBytes) {
  const files: { name: string; data: Buffer }[] = [];
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: maxFiles } })) {
    if (part.type === 'file') files.push({ name: part.filename, data: await readUpload(part, maxBytes) });
    else fields[part.fieldname] = String(part.value);
  }
  if (files.length === 0) throw new HttpError(400, messages.fileMissing);
  return { files, fields };
}

export interface Webp {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * An image decoded within the pixel limit (a decompression bomb is refused before it unpacks) and
 * turned upright: its upright size, and for each edge a WebP that fits that square — which also
 * drops whatever else the file carried (metadata, trailing bytes, a script in a polyglot).
 * Animations keep their first frame.
 */
export async function decodeImage(data: Buffer, edges: readonly number[]): Promise<{ width: number; height: number; webp: Webp[] }> {
  const { default: sharp } = await import('sharp');
  const image = () => sharp(data, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', animated: false }).rotate();
  try {
    const { autoOrient } = await image().metadata();
    const webp = await Promise.all(
      edges.map(async (edge) => {
        const { data: out, info } = await image()
          .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer({ resolveWithObject: true });
        return { data: out, width: info.width, height: info.height };
      }),
    );
    return { width: autoOrient.width, height: autoOrient.height, webp };
  } catch (error) {
    const text = String((error as Error).message);
    if (/pixel limit/i.test(text)) throw new HttpError(413, messages.imageTooManyPixels, { maxPixels: IMAGE_LIMITS.maxPixels });
    throw new HttpError(415, messages.imageUnreadable);
  }
}

/** An uploaded image as a record's one picture is stored: an accepted raster image, as WebP within `maxEdge`. */
export async function toWebp(data: Buffer, maxEdge = IMAGE_LIMITS.maxEdge): Promise<{ key: string; data: Buffer }> {
  if (!IMAGE_TYPES[(await sniff(data)) ?? '']) throw new HttpError(415, messages.imageTypeRefused);
  const { webp } = await decodeImage(data, [maxEdge]);
  return { key: newFileKey('images', 'webp'), data: webp[0]!.data };
}
