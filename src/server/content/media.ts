import type { MessageDescriptor } from '@lingui/core';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../contract/messages';
import { resourceMessages } from '../../contract/resource';
import * as cms from '../../contract/resources/cms';
import { uuidv7 } from '../../contract/uuid';
import type { ServerContext } from '../context';
import { registerResource, type ResourceHooks, type Row } from '../crud';
import { decodeImage, IMAGE_LIMITS, IMAGE_TYPES, readUpload, sniff } from '../files/images';
import { fileUrl, newFileKey, type FileStorage } from '../files/storage';
import { fieldError, HttpError } from '../http/errors';
import { ok } from '../http/reply';
import { media } from '../store/schema';

/** What an upload may carry: each file's bytes, how many files one request holds, and the thumbnail's square. */
export const MEDIA_LIMITS = { maxBytes: IMAGE_LIMITS.maxBytes, maxFiles: 10, thumbEdge: 400, maxFileName: 200 };

const PDF = 'application/pdf';
const FOLDER = 'media';
type Values = Record<string, unknown>;

/**
 * The name a file was uploaded with, kept as text only (its key is the server's): no path before
 * it, no control or invisible formatting characters (a right-to-left override makes `gpj.exe`
 * read as `exe.jpg`), at most 200 characters.
 */
export function safeFileName(name: string): string {
  const base = name.normalize('NFC').split(/[/\\]/).at(-1)!;
  const clean = [...base.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, '').trim()].slice(0, MEDIA_LIMITS.maxFileName).join('').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** An SVG, told from its first bytes: refused with its own reason, since a person may not know SVG can carry script. */
const looksLikeSvg = (data: Buffer) => /<svg[\s>/]/i.test(data.subarray(0, 4096).toString('latin1'));

/** A file as it will be stored: the facts its row keeps and the files (the main one first) its keys name. */
interface Prepared {
  fileName: string;
  mimetype: string;
  size: number;
  width: number | null;
  height: number | null;
  stored: { key: string; data: Buffer }[];
}

/**
 * One upload, as stored: its type decided by its bytes. An image is decoded within the pixel limit
 * either way (that also proves it is one) and gets a WebP thumbnail; compressed, it is stored as a
 * WebP within the usual edge, otherwise as the bytes that came, under the type they are. A PDF is
 * stored as it came, and served as a download.
 */
async function prepare(data: Buffer, name: string, compress: boolean): Promise<Prepared> {
  const fileName = safeFileName(name);
  const type = await sniff(data);
  if (type === PDF) return { fileName, mimetype: PDF, size: data.length, width: null, height: null, stored: [{ key: newFileKey(FOLDER, 'pdf'), data }] };
  const extension = type && IMAGE_TYPES[type];
  if (!extension) throw new HttpError(415, looksLikeSvg(data) ? messages.svgRefused : messages.mediaTypeRefused);
  if (compress) {
    const { webp } = await decodeImage(data, [IMAGE_LIMITS.maxEdge, MEDIA_LIMITS.thumbEdge]);
    const [main, thumb] = [webp[0]!, webp[1]!];
    return {
      fileName,
      mimetype: 'image/webp',
      size: main.data.length,
      width: main.width,
      height: main.height,
      stored: [
        { key: newFileKey(FOLDER, 'webp'), data: main.data },
        { key: newFileKey(FOLDER, 'webp'), data: thumb.data },
      ],
    };
  }
  const { width, height, webp } = await decodeImage(data, [MEDIA_LIMITS.thumbEdge]);
  return {
    fileName,
    mimetype: type,
    size: data.length,
    width,
    height,
    stored: [
      { key: newFileKey(FOLDER, extension), data },
      { key: newFileKey(FOLDER, 'webp'), data: webp[0]!.data },
    ],
  };
}

/** Removes files nothing refers to any more; one that stays behind is only space, so a failure is logged, not answered. */
async function removeFiles(files: FileStorage, keys: string[], log: FastifyBaseLogger): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => files.remove(key)));
  for (const result of results) if (result.status === 'rejected') log.warn({ err: result.reason }, 'a stored file could not be removed');
}

/** The message of an upload field's schema (its catalog id), as the descriptor a field error carries. */
const byId = new Map<string, MessageDescriptor>(Object.values(messages).map((descriptor) => [descriptor.id, descriptor]));

/** The form's text fields, by the entry's own schemas, and `compressImages` (on unless it says otherwise). */
function formValues(fields: Record<string, string>): { values: Values; compress: boolean } {
  const values: Values = {};
  for (const key of ['alt', 'description', 'folder'] as const) {
    const parsed = cms.media.fields[key].safeParse(fields[key]);
    if (!parsed.success) throw fieldError(`body.${key}`, byId.get(parsed.error.issues[0]!.message) ?? messages.invalidValue);
    values[key] = parsed.data;
  }
  const flag = (fields.compressImages ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0', 'on', 'off'].includes(flag)) throw fieldError('body.compressImages', messages.invalidValue);
  return { values, compress: !['false', '0', 'off'].includes(flag) };
}

/** The parts of a multipart upload: each file whole (413 past the limit, 400 when empty), and the text fields. */
async function readForm(request: FastifyRequest, maxFiles: number) {
  const files: { name: string; data: Buffer }[] = [];
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fileSize: MEDIA_LIMITS.maxBytes, files: maxFiles } })) {
    if (part.type === 'file') files.push({ name: part.filename, data: await readUpload(part, MEDIA_LIMITS.maxBytes) });
    else fields[part.fieldname] = String(part.value);
  }
  if (files.length === 0) throw new HttpError(400, messages.fileMissing);
  return { files, fields };
}

/** `?mimetype=`: a whole type (`image/webp`) or its family (`image`). */
function mimetypeWhere(mimetype: string | undefined): SQL | undefined {
  const type = mimetype?.trim().toLowerCase();
  if (!type) return undefined;
  return type.includes('/') ? eq(media.mimetype, type) : sql`split_part(${media.mimetype}, '/', 1) = ${type}`;
}

/**
 * A website's media library (spec §7 Media): the generic list, get, update (alt, description,
 * folder), delete and stats, and the two uploads that make its records.
 */
export function mediaRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { files, store, clock } = ctx;
  // A delete runs in a transaction that may still roll back after its hook saw the row: the files
  // go once the answer says it is gone, so a failed delete never loses them (a crash in between
  // leaves them behind, which only costs space).
  const deleted = new WeakMap<FastifyRequest, string[]>();
  app.addHook('onSend', async (request, reply, payload) => {
    const keys = deleted.get(request);
    if (keys && reply.statusCode < 300) await removeFiles(files, keys, request.log);
    return payload;
  });
  const hooks: ResourceHooks = {
    present: (entity, row) => ({ ...entity, url: fileUrl(row.storageKey as string), thumbUrl: fileUrl(row.thumbKey as string | null) }),
    narrow: (request) => mimetypeWhere((request.query as { mimetype?: string }).mimetype),
    afterDelete: (row, { request }) => void deleted.set(request, [row.storageKey as string, ...(row.thumbKey ? [row.thumbKey as string] : [])]),
  };
  const routes = registerResource(app, ctx, cms.media, media, hooks);

  /**
   * Stores every file of the form, then their rows in one statement: all or nothing. Each file is
   * checked before any is stored, and a failure after that removes what was stored.
   */
  async function upload(request: FastifyRequest, maxFiles: number, single: boolean): Promise<Row[]> {
    const form = await readForm(request, maxFiles);
    const { values, compress } = formValues(form.fields);
    const prepared: Prepared[] = [];
    // One at a time: decoding is the expensive part, and a refused file stops the rest.
    for (const file of form.files) prepared.push(await prepare(file.data, file.name, compress));
    const stored = prepared.flatMap((item) => item.stored);
    try {
      await Promise.all(stored.map((file) => files.put(file.key, file.data)));
      const now = clock();
      // Ids in the order the files came, so a list by date keeps that order.
      const ids = prepared.map(() => uuidv7(now.getTime())).toSorted();
      const shared = single ? values : { folder: values.folder };
      const rows = (await store.db
        .insert(media)
        .values(
          prepared.map(({ stored: [main, thumb], ...facts }, index) => ({
            ...shared,
            ...facts,
            id: ids[index]!,
            websiteId: request.website!.id,
            storageKey: main!.key,
            thumbKey: thumb?.key ?? null,
            version: 1,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning()) as unknown as Row[];
      return rows.toSorted((a, b) => (a.id < b.id ? -1 : 1));
    } catch (error) {
      await removeFiles(
        files,
        stored.map((file) => file.key),
        request.log,
      );
      throw error;
    }
  }

  const route = app.withTypeProvider<ZodTypeProvider>();
  const config = { policy: cms.media.access.create, website: { from: 'path', param: 'websiteId' } } as const;
  const params = z.object({ websiteId: z.string() });
  route.post(
    '/api/cms/media/:websiteId/upload',
    { config, schema: { params, response: { 201: routes.entitySchema.response[200] } } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const [row] = await upload(request, 1, true);
      reply.status(201).header('etag', `"${row!.version}"`);
      const [created, values] = resourceMessages(cms.media, request.t).created;
      return ok(routes.entity(request, row!), { message: request.t(created, values) });
    },
  );
  route.post(
    '/api/cms/media/:websiteId/upload-multiple',
    { config, schema: { params, response: { 201: routes.listSchema.response[200] } } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const rows = await upload(request, MEDIA_LIMITS.maxFiles, false);
      reply.status(201);
      return ok(
        rows.map((row) => routes.entity(request, row)),
        { message: request.t(messages.filesUploaded, { count: rows.length }) },
      );
    },
  );
}
