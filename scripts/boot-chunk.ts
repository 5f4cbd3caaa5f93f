import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The first screen in as few files as possible: every module the entry imports statically goes
 * into one chunk. Left alone, the bundler splits off whatever a lazy screen shares with the
 * entry (React, the request code, the auth machine…) into a dozen small chunks, and on a phone
 * each file costs a round trip. Lazy screens then import the pieces they share from this chunk.
 */
export function bootChunk(entry: string, { preload = [] }: { preload?: readonly string[] } = {}) {
  const entryId = resolve(entry);
  const preloaded = new Set(preload.map((file) => resolve(file)));
  const boot = new Set<string>();
  const plugin: Plugin = {
    name: 'sitekeeper:boot-chunk',
    apply: 'build',
    // Modules the entry imports only dynamically but needs before its first render (the catalog
    // of the default language): announced in index.html, so they load with the entry, not after it.
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter(
          (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId !== null && preloaded.has(chunk.facadeModuleId),
        );
        return chunks.map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' }));
      },
    },
    buildEnd() {
      boot.clear();
      const pending = [entryId];
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (boot.has(id)) continue;
        boot.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  // The entry itself stays out: it awaits the first screen's lazy chunks at its top level, and
  // they import from this chunk, which must therefore finish evaluating without waiting for it.
  return { plugin, group: { name: 'boot', test: (id: string) => id !== entryId && boot.has(id) } };
}
