import { z } from 'zod/mini';
import { defineAction, WebsiteParams } from '../action';
import { ACTOR_KINDS, ChangesSchema, REVISION_ACTIONS, RevisionValuesSchema } from '../history';
import { CMS_MODULES, FEATURES } from '../permissions';
import { defineResource, optionalQuery } from '../resource';

// The activity log (issue 20): who did what and when, read from the revisions every change writes
// (ADR 024). Two read-only entries over the same table: a website's, which any of its people reach
// and which shows each of them only the changes of what they may list themselves (the server's
// `narrow` hook, routes/activity.ts), and the admins' across every website and the admin area.

/** Where a change was made, as a person knows it: a CMS module, a feature of the website (its team, SEO, its settings). */
export const ACTIVITY_MODULES = [...CMS_MODULES, ...FEATURES] as const;
export const ActivityModule = z.enum(ACTIVITY_MODULES);
export type ActivityModule = z.infer<typeof ActivityModule>;

/** A moment or a whole day (`2026-11-20`: from its start, to its end, in UTC): what `from` and `to` take. */
const Moment = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const label = { one: /*i18n*/ { id: 'resource.activity', message: 'change' }, other: /*i18n*/ { id: 'resource.activities', message: 'changes' } };

const shape = {
  label,
  operations: ['list', 'get'] as const,
  title: 'title' as const,
  fields: {
    action: z.enum(REVISION_ACTIONS),
    /** The person who made it (none: the system, a visitor); a filter's value, never shown. */
    actorId: z.nullable(z.uuid()),
    actorKind: z.enum(ACTOR_KINDS),
    actorName: z.string(),
    device: z.string(),
    /** The record changed; a filter's value, never shown. */
    recordId: z.uuid(),
  },
  computed: {
    /** The entry the record is of (`gastroItems`), by its name; null for a table no entry shows (admins only). */
    entry: z.optional(z.nullable(z.string())),
    /** Where it was made; null: the admin area, or nothing a person reaches. */
    module: z.optional(z.nullable(ActivityModule)),
    /** The record's title as the change left it (before it, for a delete). */
    title: z.optional(z.string()),
    /** What an update changed, field by field (contract/history.ts); a secret only by its name. */
    changes: z.optional(ChangesSchema),
    /** The record's fields as the change left it (before it, for a delete): what restoring this version saves. */
    values: z.optional(RevisionValuesSchema),
  },
  filters: { action: z.enum(REVISION_ACTIONS), actorId: z.uuid(), recordId: z.uuid() },
  queryOptions: {
    /** Changes of this module's (or feature's) records only. */
    module: ActivityModule,
    /** Changes made at or after this moment (a day: from its start). */
    from: Moment,
    /** Changes made at or before this moment (a day: to its end). */
    to: Moment,
  },
  search: ['actorName'] as const,
  sort: ['createdAt'] as const,
  defaultOrder: 'desc' as const,
};

/** A website's activity: any of its people read it, each sees the changes of what their role lists. */
export const activity = defineResource({
  ...shape,
  name: 'activity',
  scope: 'website',
  members: true,
  paths: { list: '/api/websites/:websiteId/activity', item: '/api/websites/:websiteId/activity/:activityId' },
});

/** Every change, of every website and the admin area: admins only. */
export const allActivity = defineResource({
  ...shape,
  name: 'allActivity',
  scope: 'global',
  access: { read: 'admin', write: 'admin' },
  paths: { list: '/api/activity', item: '/api/activity/:activityId' },
  computed: {
    ...shape.computed,
    /** The website the change was made in; null: the admin area. */
    websiteId: z.nullable(z.uuid()),
  },
  filters: { ...shape.filters, websiteId: z.uuid() },
});

/** Someone who made a change: the person filter's choices. */
export const ActorSchema = z.object({ _id: z.uuid(), name: z.string() });
export type Actor = z.infer<typeof ActorSchema>;

const ActorQuery = z.object({ websiteId: optionalQuery(z.uuid()) });

/** The people whose changes of the website the caller may see, by name. */
export const listActivityPeople = defineAction({
  name: 'listActivityPeople',
  method: 'GET',
  path: '/api/websites/:websiteId/activity-people',
  policy: activity.access.list,
  summary: 'The people who changed something of the website that the caller may see, for the activity log’s person filter.',
  params: WebsiteParams,
  answer: z.array(ActorSchema),
});

/** The people who changed anything (of one website, with `websiteId`). */
export const listAllActivityPeople = defineAction({
  name: 'listAllActivityPeople',
  method: 'GET',
  path: '/api/activity-people',
  policy: allActivity.access.list,
  summary: 'Everyone who changed something (of one website, with websiteId), for the activity log’s person filter.',
  query: ActorQuery,
  answer: z.array(ActorSchema),
});
