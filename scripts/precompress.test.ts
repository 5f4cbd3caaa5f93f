// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

describe('precompressDir', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes brotli and gzip beside every text file, and leaves what does not shrink alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sk-precompress-'));
    await mkdir(join(dir, 'assets'));
    const script = 'const menu = ["Schnitzel", "Spätzle"];\n'.repeat(200);
    await writeFile(join(dir, 'assets', 'app.js'), script);
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>x</title>'.repeat(50));
    await writeFile(join(dir, 'tiny.css'), 'a{}');
    await writeFile(join(dir, 'icon.png'), Buffer.alloc(2000, 7));

    const totals = precompressDir(dir);

    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'app.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'app.js.gz'))).toString()).toBe(script);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    // Three bytes do not shrink: a sibling would only cost a file and a header.
    expect(existsSync(join(dir, 'tiny.css.br'))).toBe(false);
    // Images are compressed already and never looked at.
    expect(existsSync(join(dir, 'icon.png.br'))).toBe(false);
    expect(totals.files).toBe(3);
    expect(totals.brotli).toBeLessThan(totals.bytes / 10);
  });
});
