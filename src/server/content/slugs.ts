import { and, eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Resource } from '../../contract/resource';
import type { HookContext, ResourceHooks } from '../crud';

type Values = Record<string, unknown>;

const MAX_SLUG = 120;

/** Letters NFKD leaves whole, and German umlauts written out as Germans do (Müller → mueller, not muller). */
const SPELLED_OUT: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ẞ: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** A title as the last part of an address: "Über uns – Café Müller" → "ueber-uns-cafe-mueller"; empty when nothing Latin is left. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[äöüßẞæœøłđðþı]/g, (letter) => SPELLED_OUT[letter] ?? letter)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}

interface SlugSource {
  entry: Resource;
  table: PgTable;
  /** The field the slug is made from (a page's title, a category's name). */
  from: string;
  /** The slug of a title with nothing to make one from (all Cyrillic, all emoji). */
  fallback: string;
}

/**
 * An empty slug is made from the record's title, on create and when a person clears it later;
 * a slug that is set stays when the title changes, so published addresses do not move. A made
 * slug that is taken is refused like a typed one (the entry's `unique`): the person picks another.
 */
export function derivedSlug({ entry, table, from, fallback }: SlugSource): ResourceHooks {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const made = (text: unknown) => slugOf(typeof text === 'string' ? text : '') || fallback;

  async function storedSource({ tx, request }: HookContext): Promise<string> {
    const id = (request.params as Record<string, string>)[entry.itemParam!]!;
    const [row] = await tx
      .select({ text: columns[from]! })
      .from(table)
      .where(and(eq(columns.id!, id), eq(columns.websiteId!, request.website!.id)));
    return (row?.text as string | undefined) ?? '';
  }

  return {
    beforeCreate: (values: Values) => (values.slug ? values : { ...values, slug: made(values[from]) }),
    async beforeUpdate(changes: Values, context: HookContext) {
      if (!('slug' in changes) || changes.slug) return changes;
      return { ...changes, slug: made(from in changes ? changes[from] : await storedSource(context)) };
    },
  };
}
