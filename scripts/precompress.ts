import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** What a browser fetches as text; images and fonts are compressed already, source maps only by devtools. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** A sibling that saves less than this is not worth a second file and a Content-Encoding. */
const MIN_SAVING = 0.9;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry)) yield path;
  }
}

/**
 * Writes `x.br` and `x.gz` beside every text file of a build, at the strongest settings (once per
 * build, so the time is spent here and never per request). The server picks the one the browser
 * accepts (@fastify/static `preCompressed`) and falls back to the plain file.
 */
export function precompressDir(dir: string): { files: number; bytes: number; brotli: number } {
  const totals = { files: 0, bytes: 0, brotli: 0 };
  for (const path of files(dir)) {
    const plain = readFileSync(path);
    const brotli = brotliCompressSync(plain, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
    });
    const gzip = gzipSync(plain, { level: 9 });
    if (brotli.length <= plain.length * MIN_SAVING) writeFileSync(`${path}.br`, brotli);
    if (gzip.length <= plain.length * MIN_SAVING) writeFileSync(`${path}.gz`, gzip);
    totals.files += 1;
    totals.bytes += plain.length;
    totals.brotli += Math.min(plain.length, brotli.length);
  }
  return totals;
}

/** The Vite side: after everything else has written the output (the PWA plugin's service worker too). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'sitekeeper:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const { files: count, bytes, brotli } = precompressDir(outDir);
        this.info(`precompressed ${count} files: ${(bytes / 1024).toFixed(0)} kB → ${(brotli / 1024).toFixed(0)} kB brotli`);
      },
    },
  };
}
