import type { Multipart, MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** What an idempotent multipart request carries, for its request hash: each text field, each file's digest, in order. */
export interface MultipartDigest {
  fields: Record<string, string[]>;
  files: { field: string; name: string; sha256: string }[];
}

type HeldPart = { part: MultipartValue } | { part: MultipartFile; data: Buffer; truncated: boolean };

interface PartOptions {
  limits?: { files?: number; fileSize?: number };
  throwFileSizeLimit?: boolean;
}

/**
 * Reads a multipart request whole, before its handler runs, so that an Idempotency-Key can be
 * checked against what it carries (http/idempotency.ts): a form's boundary differs on every send,
 * so only its parts say whether a repeat is the same request. The parts are read under the
 * plugin's own limits (app.ts), then handed to the handler again through the same
 * `parts()`, `file()` and `files()` it would call, honouring the file count and size that call
 * asks for. A file past the size limit is kept as far as it was read and marked truncated, as the
 * plugin does, so the handler refuses it as it always has.
 */
export async function holdMultipart(request: FastifyRequest): Promise<MultipartDigest> {
  const held: HeldPart[] = [];
  // The plugin reads this option for parts() as for file(), though its types name it only there.
  for await (const part of request.parts({ throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0])) {
    if (part.type === 'file') held.push({ part, data: await part.toBuffer(), truncated: part.file.truncated });
    else held.push({ part });
  }
  replay(request, held);
  const digest: MultipartDigest = { fields: {}, files: [] };
  for (const item of held) {
    if ('data' in item) {
      digest.files.push({ field: item.part.fieldname, name: item.part.filename, sha256: createHash('sha256').update(item.data).digest('hex') });
    } else {
      (digest.fields[item.part.fieldname] ??= []).push(String(item.part.value));
    }
  }
  return digest;
}

function replay(request: FastifyRequest, held: readonly HeldPart[]): void {
  const { FilesLimitError, RequestFileTooLargeError } = request.server.multipartErrors;

  /** A fresh copy of a held file: its stream can be read once, as the plugin's can. */
  function fileOf({ part, data, truncated }: Extract<HeldPart, { data: Buffer }>, options: PartOptions): MultipartFile {
    const over = options.limits?.fileSize !== undefined && data.length > options.limits.fileSize;
    const kept = over ? data.subarray(0, options.limits!.fileSize) : data;
    const cut = truncated || over;
    const file = Object.assign(Readable.from([kept], { objectMode: false }), { truncated: cut, bytesRead: kept.length });
    return {
      ...part,
      file,
      async toBuffer() {
        if (cut && options.throwFileSizeLimit !== false) throw new RequestFileTooLargeError();
        return kept;
      },
    } as MultipartFile;
  }

  async function* parts(options: PartOptions = {}): AsyncIterableIterator<Multipart> {
    let seen = 0;
    for (const item of held) {
      if (!('data' in item)) {
        yield item.part;
        continue;
      }
      seen += 1;
      if (options.limits?.files !== undefined && seen > options.limits.files) throw new FilesLimitError();
      yield fileOf(item, options);
    }
  }
  async function* files(options?: PartOptions): AsyncIterableIterator<MultipartFile> {
    for await (const part of parts(options)) if (part.type === 'file') yield part;
  }

  request.parts = parts as FastifyRequest['parts'];
  request.files = files as FastifyRequest['files'];
  request.file = (async (options?: PartOptions) => {
    for await (const part of files(options)) return part;
    return undefined;
  }) as FastifyRequest['file'];
}
