import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { messages } from '../../contract/messages';
import type { ServerContext } from '../context';
import { composeHooks, type HookContext, type ResourceHooks, type Row, type Tx } from '../crud';
import { fieldError } from '../http/errors';
import { gastroAllergens, gastroItems } from '../store/schema';
import { mediaLink } from './media-links';

type Values = Record<string, unknown>;
type Clock = ServerContext['clock'];

/**
 * A dish's allergens are allergens of its website. An array has no foreign key, so each id is
 * checked here, and the allergens named are held (`key share`) until the dish is stored: an
 * allergen deleted meanwhile waits, and its delete then takes the id out of this dish too.
 */
async function checkAllergens(values: Values, { tx, request }: HookContext): Promise<Values> {
  if (!Array.isArray(values.allergenIds)) return values;
  const ids = [...new Set(values.allergenIds as string[])];
  if (ids.length > 0) {
    const found = await tx
      .select({ id: gastroAllergens.id })
      .from(gastroAllergens)
      .where(and(eq(gastroAllergens.websiteId, request.website!.id), inArray(gastroAllergens.id, ids)))
      .for('key share');
    if (found.length !== ids.length) throw fieldError('body.allergenIds', messages.unknownReference);
  }
  return { ...values, allergenIds: ids };
}

/** A dish (spec §7 Gastro menus): its picture from the library, its allergens of the website. */
export const gastroItemHooks: ResourceHooks = composeHooks(
  mediaLink({ idField: 'mediaId', keyColumn: 'imageKey', urlField: 'thumbUrl' }),
  { beforeCreate: checkAllergens, beforeUpdate: checkAllergens },
);

/**
 * Takes allergen ids out of a website's dishes, in one statement, and bumps the versions of the
 * dishes it changes (an editor holding one of them sees the change as a conflict, not a loss):
 * `gone` names the ids to drop, or, left out, every id that is no allergen of the website.
 */
export async function dropAllergens(tx: Pick<Tx, 'update'>, clock: Clock, websiteId: string, gone?: string): Promise<Row[]> {
  const kept = (id: SQL) =>
    gone === undefined
      ? sql`exists (select 1 from ${gastroAllergens} a where a.website_id = ${websiteId} and a.id = ${id})`
      : sql`${id} <> ${gone}::uuid`;
  const stale =
    gone === undefined ? sql`exists (select 1 from unnest(${gastroItems.allergenIds}) as u(id) where not ${kept(sql`u.id`)})` : sql`${gastroItems.allergenIds} @> array[${gone}::uuid]`;
  return (await tx
    .update(gastroItems)
    .set({
      // The ids kept, in the order the dish had them.
      allergenIds: sql`array(select u.id from unnest(${gastroItems.allergenIds}) with ordinality as u(id, n) where ${kept(sql`u.id`)} order by u.n)`,
      version: sql`${gastroItems.version} + 1`,
      updatedAt: clock(),
    })
    .where(and(eq(gastroItems.websiteId, websiteId), stale))
    .returning()) as unknown as Row[];
}

/** An allergen deleted leaves the website's dishes in the same transaction. */
export const gastroAllergenHooks = (clock: Clock): ResourceHooks => ({
  async afterDelete(row, { tx }) {
    await dropAllergens(tx, clock, row.websiteId as string, row.id);
  },
});
