import type { Plugin } from 'vite';

/** A plain descriptor as the contract writes them (`/*i18n*\/ { id: '…', message: '…' }`), its English text apart. */
const DESCRIPTOR = /(\/\*i18n\*\/\s*\{\s*id:\s*'[^']*'),\s*message:\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`)\s*,?\s*\}/g;

/** The descriptors of `code` with only their ids, on as many lines as before (a source map's lines stay right). */
export function dropDescriptorText(code: string): string {
  return code.replace(DESCRIPTOR, (whole: string, head: string) => `${head}${'\n'.repeat(whole.split('\n').length - head.split('\n').length)} }`);
}

/**
 * The contract's plain descriptors (they run in Node and the worker too, so no macro compiles
 * them) keep their English text for those; in the page's build it only repeated the English
 * catalog, which holds every one of them (lingui.config.ts: the contract is in `boot`); Lingui's
 * macro leaves its own descriptors with their ids alone too (ADR 038).
 */
export function descriptorIdsOnly(): Plugin {
  return {
    name: 'sitekeeper:descriptor-ids-only',
    // On the source as written: later transforms may drop the comment that marks a descriptor.
    enforce: 'pre',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/src/contract/') || !code.includes('/*i18n*/')) return undefined;
      return { code: dropDescriptorText(code), map: null };
    },
  };
}
