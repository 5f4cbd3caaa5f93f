import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import type { EntityOf } from '../../contract/resource';
import * as gastro from '../../contract/resources/gastro';
import { uuidv7 } from '../../contract/uuid';
import type { ServerContext } from '../context';
import { dropAllergens, gastroAllergenHooks, gastroItemHooks } from '../content/gastro';
import { registerAction } from '../action';
import { registerResource, type Row } from '../crud';
import { ok } from '../http/reply';
import { alphabetical } from '../store/schema/collation';
import * as tables from '../store/schema';

/**
 * A restaurant's menus (spec §7 Gastro menus): the four entries on the generic CRUD (categories
 * and dishes ordered under their menu, ADR 012), and the two actions beyond it.
 */
export async function gastroRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store, clock } = ctx;
  registerResource(app, ctx, gastro.gastroMenus, tables.gastroMenus);
  registerResource(app, ctx, gastro.gastroCategories, tables.gastroCategories, {}, { parentTable: tables.gastroMenus });
  const allergens = registerResource(app, ctx, gastro.gastroAllergens, tables.gastroAllergens, gastroAllergenHooks(clock));
  const items = registerResource(app, ctx, gastro.gastroItems, tables.gastroItems, gastroItemHooks, { parentTable: tables.gastroMenus });

  /**
   * The 14 allergens of Regulation (EU) No 1169/2011 Annex II that the website lacks, by letter, in
   * one statement: a second call, or two at once, make nothing more. The answer is the website's
   * whole legend, so a client can write it to its cache.
   */
  registerAction(app, gastro.loadDefaultAllergens, async (_input, request) => {
    const websiteId = request.website!.id;
    const now = clock();
    const made = await store.db
      .insert(tables.gastroAllergens)
      .values(
        gastro.DEFAULT_ALLERGENS.map(({ identifier, en, de }) => ({
          id: uuidv7(now.getTime()),
          websiteId,
          identifier,
          name: en,
          content: { de: { name: de } },
          version: 1,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: tables.gastroAllergens.id });
    const legend = (await store.db
      .select()
      .from(tables.gastroAllergens)
      .where(eq(tables.gastroAllergens.websiteId, websiteId))
      .orderBy(asc(alphabetical(tables.gastroAllergens.identifier)), asc(tables.gastroAllergens.id))) as unknown as Row[];
    return ok(
      legend.map((row) => allergens.entity(request, row) as EntityOf<typeof gastro.gastroAllergens>),
      { message: request.t(messages.defaultAllergensCreated, { count: made.length }) },
    );
  });

  /** Drops from the website's dishes every allergen id that is no allergen of it (any more), and answers the dishes it changed. */
  registerAction(app, gastro.cleanupAllergens, async (_input, request) => {
    const changed = await dropAllergens(store.db, clock, request.website!.id);
    return ok(
      { changed: changed.length, items: changed.map((row) => items.entity(request, row) as EntityOf<typeof gastro.gastroItems>) },
      { message: request.t(messages.allergensCleanedUp, { count: changed.length }) },
    );
  });
}
