import { vi } from 'vitest';

/**
 * fake-indexeddb clones every value with Node's structuredClone, which does not know happy-dom's
 * Blob and File: for the rest of the test they are kept as they are, as a browser's IndexedDB
 * keeps them. (Tests in Node's environment need none of this.)
 */
export function keepBlobs(): void {
  const clone = structuredClone;
  const copy = (value: unknown): unknown => {
    if (value instanceof Blob) return value;
    if (Array.isArray(value)) return value.map(copy);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
    return clone(value);
  };
  vi.stubGlobal('structuredClone', copy);
}
