import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActionAnswer } from '../../contract/action';
import { messages } from '../../contract/messages';
import { resourceMessages } from '../../contract/resource';
import * as cms from '../../contract/resources/cms';
import { uuidv7 } from '../../contract/uuid';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { registerResource, type ResourceHooks, type Row } from '../crud';
import { decodeImage, IMAGE_LIMITS, IMAGE_TYPES, readForm, sniff } from '../files/images';
import { fileUrl, newFileKey, removeFiles } from '../files/storage';
import { fieldError, HttpError, issueMessage } from '../http/errors';
import { ok } from '../http/reply';
import { PG_UNIQUE_VIOLATION, pgError } from '../store/pg-errors';
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

/** The form's text fields, by the entry's own schemas, and `compressImages` (on unless it says otherwise). */
function formValues(fields: Record<string, string>): { values: Values; compress: boolean } {
  const values: Values = {};
  for (const key of ['alt', 'description', 'folder'] as const) {
    const parsed = cms.media.fields[key].safeParse(fields[key]);
    if (!parsed.success) throw fieldError(`body.${key}`, issueMessage(parsed.error.issues[0]!));
    values[key] = parsed.data;
  }
  const flag = (fields.compressImages ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0', 'on', 'off'].includes(flag)) throw fieldError('body.compressImages', messages.invalidValue);
  return { values, compress: !['false', '0', 'off'].includes(flag) };
}

/**
 * The id the client chose for the one record an upload makes (DESIGN §4: a photo taken offline is
 * named by a dish saved meanwhile), or none; an upload of several files makes several records, so
 * one id names none of them.
 */
function chosenId(fields: Record<string, string>, single: boolean): string | undefined {
  const id = fields._id;
  if (id === undefined) return undefined;
  if (!single || !cms.media.create.shape._id.safeParse(id).success) throw fieldError('body._id', messages.invalidValue);
  return id;
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
export async function mediaRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { files, store, clock } = ctx;
  const hooks: ResourceHooks = {
    present: (entity, row) => ({ ...entity, url: fileUrl(row.storageKey as string), thumbUrl: fileUrl(row.thumbKey as string | null) }),
    narrow: (request) => mimetypeWhere((request.query as { mimetype?: string }).mimetype),
  };
  const routes = registerResource(app, ctx, cms.media, media, hooks, { fileColumns: ['storageKey', 'thumbKey'] });

  /**
   * Stores every file of the form, then their rows in one statement: all or nothing. Each file is
   * checked before any is stored, and a failure after that removes what was stored.
   */
  async function upload(request: FastifyRequest, maxFiles: number, single: boolean): Promise<Row[]> {
    const form = await readForm(request, maxFiles, MEDIA_LIMITS.maxBytes);
    const { values, compress } = formValues(form.fields);
    const chosen = chosenId(form.fields, single);
    const prepared: Prepared[] = [];
    // One at a time: decoding is the expensive part, and a refused file stops the rest.
    for (const file of form.files) prepared.push(await prepare(file.data, file.name, compress));
    const stored = prepared.flatMap((item) => item.stored);
    try {
      await Promise.all(stored.map((file) => files.put(file.key, file.data)));
      const now = clock();
      // Ids in the order the files came, so a list by date keeps that order.
      const ids = chosen ? [chosen] : prepared.map(() => uuidv7(now.getTime())).toSorted();
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
      // The chosen id is another record's, of this website or any other: the caller's to change.
      if (chosen && pgError(error)?.code === PG_UNIQUE_VIOLATION) throw fieldError('body._id', messages.valueTaken);
      throw error;
    }
  }

  type Entity = ActionAnswer<typeof cms.uploadMedia>;
  registerAction(app, cms.uploadMedia, async (_input, request, reply) => {
    const [row] = await upload(request, 1, true);
    reply.header('etag', `"${row!.version}"`);
    const [created, values] = resourceMessages(cms.media, request.t).created;
    return ok(routes.entity(request, row!) as Entity, { message: request.t(created, values) });
  });
  registerAction(app, cms.uploadMediaFiles, async (_input, request) => {
    const rows = await upload(request, MEDIA_LIMITS.maxFiles, false);
    return ok(
      rows.map((row) => routes.entity(request, row) as Entity),
      { message: request.t(messages.filesUploaded, { count: rows.length }) },
    );
  });
}
