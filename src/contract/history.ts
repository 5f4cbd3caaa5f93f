import { z } from 'zod/mini';

/**
 * A change of a record as its entry shows it (ADR 024): the server wrote it down in the change's own
 * transaction; the activity log (resources/activity.ts) lists them, and a record's history is that
 * log filtered to the record. A restore is no call of its own: the editor saves a revision's
 * `values` as an update from the version it was showing.
 */
export const REVISION_ACTIONS = ['create', 'update', 'delete', 'reorder'] as const;
export type RevisionAction = (typeof REVISION_ACTIONS)[number];
/** user: a signed-in person; visitor: a form sent through the delivery API; system: a job, the first start. */
export const ACTOR_KINDS = ['user', 'visitor', 'system'] as const;

/**
 * What an update changed: each field with its value before and after; a secret field only by its
 * name. Empty for a create or delete (the values hold the record).
 */
export const ChangesSchema = z.array(z.object({ field: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()), secret: z.optional(z.literal(true)) }));
export type Changes = z.infer<typeof ChangesSchema>;

/** The record's fields as a change left them (before it, for a delete): what restoring that version saves. */
export const RevisionValuesSchema = z.record(z.string(), z.unknown());
