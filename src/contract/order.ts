/**
 * The order of a parent's children (menu items, slides; gastro categories and items next): a
 * reorder names the whole order it wants and the order it was made from. The server compares
 * that base with the order it holds, so a reorder made elsewhere meanwhile is a conflict (409),
 * not silently overwritten (ADR 012).
 */

/**
 * A short tag for an order (the children's ids, first to last), sent as the reorder's `If-Match`
 * and answered as its `ETag`: FNV-1a over the ids, in base 36. Equal orders have equal tags; a
 * child added, removed or moved changes it.
 */
export function orderTag(ids: readonly string[]): string {
  let hash = 0x811c9dc5;
  const text = ids.join(',');
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `o${hash.toString(36)}`;
}
