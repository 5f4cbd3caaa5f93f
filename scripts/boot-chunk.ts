import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The chunk of what the screens after sign-in share. */
const SHARED = 'app';

/**
 * The first screen in as few files as possible: every module the entry imports statically goes
 * into one chunk, and what the screens after it share into a second. Left alone, the bundler splits off whatever a lazy screen shares with the
 * entry (React, the request code, the auth machine…) into a dozen small chunks, and on a phone
 * each file costs a round trip. Lazy screens then import the pieces they share from this chunk.
 */
export function bootChunk(
  entry: string,
  { preload = [], sources = [], signedIn = [] }: { preload?: readonly string[]; sources?: readonly string[]; signedIn?: readonly string[] } = {},
) {
  const entryId = resolve(entry);
  const preloaded = new Set(preload.map((file) => resolve(file)));
  const signedInScreens = new Set(signedIn.map((file) => resolve(file)));
  const allMessages = /[\\/]src[\\/]locales[\\/](\w+)[\\/]messages\.ts$/;
  const boot = new Set<string>();
  const src = resolve('src');
  // The first screen's catalog holds the messages of these sources only (lingui.config.ts).
  const covered = (id: string) => !id.startsWith(src) || !/\.[jt]sx?$/.test(id) || sources.some((source) => id === resolve(source) || id.startsWith(`${resolve(source)}/`));
  const plugin: Plugin = {
    name: 'sitekeeper:boot-chunk',
    apply: 'build',
    // Modules the entry imports only dynamically but needs before its first render (the catalog
    // of the default language): announced in index.html, so they load with the entry, not after it.
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const all = Object.values(bundle ?? {});
        const chunks = all.filter((chunk) => chunk.type === 'chunk' && chunk.facadeModuleId !== null && preloaded.has(chunk.facadeModuleId));
        // What every signed-in start runs before its first render, named for public/snapshot.js, which
        // asks for it beside boot: the screens' shared chunk, the shell, their styles, and each
        // language's whole catalog (a signed-in start loads all its messages: ADR 014). The sign-in
        // page never loads them.
        const signedInChunks = all.flatMap((chunk) =>
          chunk.type === 'chunk' && (chunk.name === SHARED || (chunk.facadeModuleId !== null && signedInScreens.has(chunk.facadeModuleId)))
            ? [chunk.fileName, ...(chunk.viteMetadata?.importedCss ?? [])]
            : [],
        );
        const catalogs = all.flatMap((chunk) => {
          const language = chunk.type === 'chunk' && chunk.facadeModuleId?.match(allMessages)?.[1];
          return language ? [{ tag: 'meta', attrs: { name: 'signed-in-catalog', lang: language, content: `/${chunk.fileName}` }, injectTo: 'head' as const }] : [];
        });
        return [
          ...chunks.map((chunk) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' as const })),
          { tag: 'meta', attrs: { name: 'signed-in-chunks', content: signedInChunks.map((file) => `/${file}`).join(' ') }, injectTo: 'head' as const },
          ...catalogs,
        ];
      },
    },
    buildEnd() {
      boot.clear();
      const pending = [entryId];
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (boot.has(id)) continue;
        // An icon set's index imports every icon; in this chunk, every icon any screen uses would
        // load with the sign-in form. Code the first screen runs imports its icons by path.
        if (/[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.m?js$/.test(id)) {
          this.error(`The first screen imports 'lucide-react' whole (from ${[...boot].find((seen) => this.getModuleInfo(seen)?.importedIds.includes(id))}): import its icons by path, 'lucide-react/icons/<name>'`);
        }
        if (sources.length > 0 && !covered(id)) {
          this.error(`${id} loads with the first screen, but its messages are not in the first screen's catalog: add it to BOOT_SOURCES (lingui.config.ts) or load it lazily`);
        }
        boot.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  // The entry itself stays out: it awaits the first screen's lazy chunks at its top level, and
  // they import from this chunk, which must therefore finish evaluating without waiting for it.
  const inBoot = (id: string) => id !== entryId && boot.has(id);
  // What three or more lazy chunks share (the list and editor machinery, the device's store, the
  // entries' contracts) goes into one chunk after boot. Left to the bundler it was some 70 files,
  // and a screen asked for each: a request dispatched from the page costs ~2 ms on a slow phone and
  // each went through the service worker, so a dish's editor waited ~250 ms for its chunks.
  // Two or more put screens' own code there too; more than three left the request count high.
  const shared = (id: string) => id !== entryId && !boot.has(id);
  return {
    plugin,
    groups: [
      { name: 'boot', test: inBoot, priority: 2 },
      { name: SHARED, test: shared, minShareCount: 3, priority: 1 },
    ],
  };
}
