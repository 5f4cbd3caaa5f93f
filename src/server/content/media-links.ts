import { and, eq, sql } from 'drizzle-orm';
import type { HookContext, ResourceHooks } from '../crud';
import { fileUrl } from '../files/storage';
import { media } from '../store/schema';

type Values = Record<string, unknown>;

/**
 * A record that shows a picture of the media library (a dish, a slide, a post's cover, the Open
 * Graph image): the key of the picture's thumbnail (of the picture itself where it has none: a
 * small one, an SVG) is copied beside its id when the id is written, so a page of such records is
 * answered with the URLs and no join, and a list on a phone loads small files, not the photos;
 * deleting the picture clears both (the migration's SET NULL names the two columns). Files are
 * never replaced under a key, so the copy cannot go stale.
 */
export function mediaLink({ idField, keyColumn, urlField }: { idField: string; keyColumn: string; urlField: string }): ResourceHooks {
  async function withKey(values: Values, { tx, request }: HookContext): Promise<Values> {
    if (!(idField in values)) return values;
    const id = values[idField];
    if (typeof id !== 'string') return { ...values, [keyColumn]: null };
    const [found] = await tx
      .select({ key: sql<string>`coalesce(${media.thumbKey}, ${media.storageKey})` })
      .from(media)
      .where(and(eq(media.id, id), eq(media.websiteId, request.website!.id)));
    // An id of no picture of this website: the composite key refuses it as a field error.
    return { ...values, [keyColumn]: found?.key ?? null };
  }
  return {
    beforeCreate: withKey,
    beforeUpdate: withKey,
    present: (entity, row) => ({ ...entity, [urlField]: fileUrl(row[keyColumn] as string | null) }),
  };
}
