import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minifySync, type Plugin } from 'vite';

/**
 * Minifies classic scripts that public/ holds as written, with comments that say why: Vite copies
 * them as they are. `snapshot.js` runs on every start, the sign-in page's included, where its
 * comments were half its bytes (`npm run bench` holds that page to 2× a bare React page).
 */
export function minifyScripts(dir: string, names: readonly string[]): void {
  for (const name of names) {
    const path = join(dir, name);
    const { code, errors } = minifySync(name, readFileSync(path, 'utf8'), { compress: true, mangle: true });
    if (errors.length > 0) throw new Error(`${name} does not minify: ${errors.map((error) => error.message).join('; ')}`);
    writeFileSync(path, code);
  }
}

/** The Vite side: once the public files are in the output, before the service worker's manifest and the compressed copies are made of them. */
export function minifyPublicScripts(names: readonly string[]): Plugin {
  return {
    name: 'sitekeeper:minify-public',
    apply: 'build',
    writeBundle: {
      order: 'pre',
      handler({ dir }) {
        if (!dir) this.error('the public scripts are minified in an output directory, and this build writes none');
        minifyScripts(dir, names);
      },
    },
  };
}
