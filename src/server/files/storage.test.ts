// @vitest-environment node
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStorage, newFileKey } from './storage';

/*
 * Issue 17, defect 3: a file whose write fails part-way (a full disk, a stream that breaks off) is
 * not left behind under a key nothing will ever name.
 */

describe('files on disk', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sk-storage-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('removes what a write that failed part-way had written, never a file that was there', async () => {
    const files = diskStorage(root);
    const key = newFileKey('media', 'png');
    // Data that breaks off after its first chunk has reached the disk.
    const breaking = (async function* () {
      yield Buffer.alloc(64 * 1024, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('the disk is full');
    })();
    await expect(files.put(key, breaking as unknown as Buffer)).rejects.toThrow('the disk is full');
    expect(existsSync(join(root, key))).toBe(false);
    // A write that failed because the key was taken leaves that file as it was.
    const taken = newFileKey('media', 'png');
    await files.put(taken, Buffer.from('first'));
    await expect(files.put(taken, Buffer.from('second'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(join(root, taken), 'utf8')).toBe('first');
  });
});
