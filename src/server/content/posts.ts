import { and, eq } from 'drizzle-orm';
import { postCategories as categoryEntry, posts as postEntry } from '../../contract/resources/cms';
import { composeHooks, type HookContext, type ResourceHooks } from '../crud';
import { postCategories, posts } from '../store/schema';
import { mediaLink } from './media-links';
import { richTextFields } from './sanitize';
import { derivedSlug } from './slugs';

type Values = Record<string, unknown>;

/** A post category (spec §7 Posts): its slug made from its name when none is given. */
export const postCategoryHooks = derivedSlug({ entry: categoryEntry, table: postCategories, from: 'name', fallback: 'category' });

const undated = (status: unknown, publishedAt: unknown) => status === 'published' && publishedAt == null;

/**
 * A published post always says when: one published without a date gets the moment it was (a
 * date ahead is a post scheduled for then, which the delivery API holds back until it comes).
 */
function publishedAtHooks(clock: () => Date): ResourceHooks {
  return {
    beforeCreate: (values: Values) => (undated(values.status, values.publishedAt) ? { ...values, publishedAt: clock().toISOString() } : values),
    async beforeUpdate(changes: Values, { tx, request }: HookContext) {
      if (!('status' in changes) && !('publishedAt' in changes)) return changes;
      const id = (request.params as Record<string, string>)[postEntry.itemParam!]!;
      const [stored] = await tx
        .select({ status: posts.status, publishedAt: posts.publishedAt })
        .from(posts)
        .where(and(eq(posts.id, id), eq(posts.websiteId, request.website!.id)));
      if (!stored) return changes;
      const status = 'status' in changes ? changes.status : stored.status;
      const publishedAt = 'publishedAt' in changes ? changes.publishedAt : stored.publishedAt;
      return undated(status, publishedAt) ? { ...changes, publishedAt: clock().toISOString() } : changes;
    },
  };
}

/** A website's posts (spec §7 Posts): slug, sanitized content, publication date, cover picture, and `?category=`. */
export function postHooks(clock: () => Date): ResourceHooks {
  return composeHooks(
    derivedSlug({ entry: postEntry, table: posts, from: 'title', fallback: 'post' }),
    richTextFields('content'),
    publishedAtHooks(clock),
    mediaLink({ idField: 'coverMediaId', keyColumn: 'coverKey', urlField: 'coverThumbUrl' }),
    {
      narrow(request) {
        const { category } = request.query as { category?: string };
        return category ? eq(posts.categoryId, category) : undefined;
      },
    },
  );
}
