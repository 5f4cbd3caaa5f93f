import { z } from 'zod/mini';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, optionalQuery, queryInt } from './resource';

/**
 * A record's history (ADR 024): every change of it, newest first, as the server wrote it down in the
 * change's own transaction. A restore is no call of its own: the editor saves a revision's `values`
 * as an update from the version it was showing.
 */
export const REVISION_ACTIONS = ['create', 'update', 'delete', 'reorder'] as const;
export const ACTOR_KINDS = ['user', 'visitor', 'system'] as const;

export const RevisionSchema = z.object({
  _id: z.uuid(),
  action: z.enum(REVISION_ACTIONS),
  at: z.iso.datetime({ offset: true }),
  /** The record's version after the change. */
  version: z.nullable(z.int()),
  actor: z.object({ kind: z.enum(ACTOR_KINDS), name: z.string(), device: z.string() }),
  /**
   * What an update changed: each field with its value before and after; a secret field only by its
   * name. Empty for a create or delete (`values` holds the record).
   */
  changes: z.array(z.object({ field: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()), secret: z.optional(z.literal(true)) })),
  /** The record's fields as the change left them (before a delete): what a restore of it saves. */
  values: z.record(z.string(), z.unknown()),
});
export type Revision = z.infer<typeof RevisionSchema>;

export const HistoryQuerySchema = z.object({
  page: z._default(optionalQuery(queryInt(1, 1_000_000)), 1),
  limit: z._default(optionalQuery(queryInt(1, MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
});

/** Where a record's history is read: below its own path, with its own read policy. */
export const historyPath = (itemPath: string) => `${itemPath}/history`;
