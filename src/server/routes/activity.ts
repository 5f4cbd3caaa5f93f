import { and, asc, desc, eq, gte, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { allows, isAdmin, type CmsModule, type Feature } from '../../contract/permissions';
import type { Resource } from '../../contract/resource';
import { activity, ActivityModule, allActivity, listActivityPeople, listAllActivityPeople, type Actor } from '../../contract/resources/activity';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { entryOfRow, registerResource, revisionShape, type ResourceContext, type ResourceHooks } from '../crud';
import { ok } from '../http/reply';
import { caller, principal } from '../policy';
import { revisions } from '../store/schema';

// The activity log (issue 20): the revisions every change writes (migration 0014), read through the
// registry as two read-only entries, each revision shown as the entry of its record shows its
// history (crud/history.ts revisionShape). Who sees what is this file's `narrow` hook: admins every
// change; a website's owner and partner every change of it that an entry shows; a team member
// those of the entries whose list their role opens. A change of a table no entry shows is the
// admins' alone.

type RevisionRow = typeof revisions.$inferSelect;

/** Where a person knows an entry's records from: its CMS module, its feature, a website's own settings; null for the admin area. */
export function moduleOf(resource: Resource): ActivityModule | null {
  const scope = resource as Resource & Partial<{ module: CmsModule; feature: Feature; websites: true }>;
  if (scope.scope === 'website') return scope.module ?? scope.feature ?? null;
  // A website's own record is its settings (a member's Settings link is its form).
  return scope.scope === 'owner' && scope.websites ? 'settings' : null;
}

/** The revisions of an entry's part of a shared table (`users` by type). */
const partOf = ({ tableName, part }: ResourceContext & { part: NonNullable<ResourceContext['part']> }): SQL =>
  and(eq(revisions.tableName, tableName), inArray(sql`${revisions.values} ->> ${part.column}`, [...part.in]))!;

/**
 * The revisions of any of these entries; none when there are none. Whole tables are one array
 * (`table_name = any(…)`), not one condition each: a log is read on every screen that shows one.
 */
function anyOf(contexts: readonly ResourceContext[]): SQL {
  const whole = [...new Set(contexts.filter((context) => !context.part).map((context) => context.tableName))];
  const parts = contexts.filter((context): context is ResourceContext & { part: NonNullable<ResourceContext['part']> } => context.part !== undefined);
  const conditions = [...(whole.length > 0 ? [inArray(revisions.tableName, whole)] : []), ...parts.map(partOf)];
  return conditions.length > 0 ? or(...conditions)! : sql`false`;
}

/** A moment, or a day from its start (`end`: to its end), in UTC; null for anything else (a read by id carries an unchecked query). */
function moment(value: unknown, end: boolean): Date | null {
  if (typeof value !== 'string') return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(day ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The hooks both entries share: who sees which revisions, the query's module and dates, and each revision as its entry shows it. */
export function activityHooks(ctx: Pick<ServerContext, 'entries'>): ResourceHooks {
  /** Every entry whose records a log may show (not the logs themselves). */
  const shown = () => [...ctx.entries.values()].flat().filter((context) => context.tableName !== 'revisions');
  const shapes = new WeakMap<ResourceContext, ReturnType<typeof revisionShape>>();
  const shapeOf = (context: ResourceContext) => {
    let shape = shapes.get(context);
    if (!shape) shapes.set(context, (shape = revisionShape(context)));
    return shape;
  };

  /** The revisions this caller may see: admins all; everyone else those of entries they may list (the route's guard reached the website). */
  function visible(request: FastifyRequest): SQL | undefined {
    const who = principal(caller(request));
    if (isAdmin(who)) return undefined;
    return anyOf(shown().filter((context) => allows(context.resource.access.list, who)));
  }

  function options(request: FastifyRequest): SQL | undefined {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const module = ActivityModule.safeParse(query.module);
    const from = moment(query.from, false);
    const to = moment(query.to, true);
    return and(
      module.success ? anyOf(shown().filter((context) => moduleOf(context.resource) === module.data)) : undefined,
      from ? gte(revisions.createdAt, from) : undefined,
      to ? lte(revisions.createdAt, to) : undefined,
    );
  }

  return {
    narrow: (request) => and(visible(request), options(request)),
    present(entity, row) {
      const revision = row as unknown as RevisionRow;
      const context = entryOfRow(ctx.entries, revision.tableName, revision.values as Record<string, unknown>);
      if (!context) return { ...entity, entry: null, module: null, title: '', changes: [], values: {} };
      const shaped = shapeOf(context)(revision);
      const title = shaped.values[context.resource.title];
      return { ...entity, entry: context.resource.name, module: moduleOf(context.resource), title: typeof title === 'string' ? title : '', changes: shaped.changes, values: shaped.values };
    },
  };
}

/** The people among these revisions, by the name of their latest change. */
async function people(ctx: ServerContext, where: SQL | undefined): Promise<Actor[]> {
  const rows = await ctx.store.db
    .selectDistinctOn([revisions.actorId], { id: revisions.actorId, name: revisions.actorName })
    .from(revisions)
    .where(and(isNotNull(revisions.actorId), where))
    .orderBy(asc(revisions.actorId), desc(revisions.createdAt));
  return rows.map((row) => ({ _id: row.id!, name: row.name })).toSorted((a, b) => a.name.localeCompare(b.name));
}

/** A website's activity and the admins' across all of them: after every other entry, so theirs are all known by the first request. */
export async function activityRoutes(app: FastifyInstance, ctx: ServerContext) {
  const hooks = activityHooks(ctx);
  registerResource(app, ctx, activity, revisions, hooks);
  registerResource(app, ctx, allActivity, revisions, hooks);
  registerAction(app, listActivityPeople, async (_input, request) => ok(await people(ctx, and(eq(revisions.websiteId, request.website!.id), hooks.narrow!(request)))));
  registerAction(app, listAllActivityPeople, async ({ query }) => ok(await people(ctx, query.websiteId ? eq(revisions.websiteId, query.websiteId) : undefined)));
}
