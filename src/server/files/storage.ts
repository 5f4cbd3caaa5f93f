import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Where uploaded files live, behind one small interface (docs/design.md §9): a folder of the data
 * dir by default; object storage can stand in for it when several instances serve the API.
 * Keys are always the server's own (`images/<uuid>.webp`): no name a client sent becomes a path.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** The file's bytes, or null when there is none under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Gone afterwards, whether it existed or not. */
  remove(key: string): Promise<void>;
}

/** A key the server made: a folder and a UUID file name with a known extension. Anything else is no file. */
export const FILE_KEY = /^[a-z]+\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(webp|jpg|png|gif|avif|pdf)$/;

/** What a stored file is served as, by its key's extension. */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  avif: 'image/avif',
  pdf: 'application/pdf',
};

/** A new key in `folder` for a file of the type `extension` stands for. */
export const newFileKey = (folder: string, extension: string) => checkedKey(`${folder}/${randomUUID()}.${extension}`);

/** Every store refuses a key it did not make, so no caller's text can ever become a path. */
export function checkedKey(key: string): string {
  if (!FILE_KEY.test(key)) throw new Error(`Not a file key: ${key}`);
  return key;
}

export function diskStorage(root: string): FileStorage {
  const path = (key: string) => join(root, checkedKey(key));
  return {
    async put(key, data) {
      const file = path(key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, data, { flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
        // A write that failed part-way (a full disk) leaves no half file behind; one that found the
        // key taken leaves that file alone.
        if (error.code !== 'EEXIST') await rm(file, { force: true });
        throw error;
      });
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
  };
}

/** Removes files nothing refers to any more; one that stays behind is only space, so a failure is logged, not answered. */
export async function removeFiles(files: FileStorage, keys: readonly string[], log: FastifyBaseLogger): Promise<void> {
  const results = await Promise.allSettled(keys.map((key) => files.remove(key)));
  for (const result of results) if (result.status === 'rejected') log.warn({ err: result.reason }, 'a stored file could not be removed');
}

/** Where the API serves a stored file (routes/files.ts). */
export const fileUrl = (key: string | null | undefined): string | null => (key ? `/api/files/${key}` : null);
