import { contentEvent, FORM_SUBMITTED, type ContentAction } from '../../contract/resources/webhooks';
import { entryOfRow, type RegisteredEntries } from '../crud/context';
import type { revisions } from '../store/schema';

type Revision = typeof revisions.$inferSelect;

/** What a receiver is told of one change (ADR 026): ids only, never a column's value. */
export interface WebhookEvent {
  type: string;
  module: string;
  entry: string;
}

/** Statuses in which a record is on the website: a page or post published, a slider active. */
const LIVE = new Set(['published', 'active']);

/**
 * Whether the change put the record on the website: made, or switched to a live status. A record
 * without a status is live once it exists.
 */
function wentLive({ action, values, changed }: Revision): boolean {
  const status = (values as Record<string, unknown>).status;
  const live = status === undefined || LIVE.has(status as string);
  return live && (action === 'create' || changed.includes('status'));
}

/**
 * The event a revision is, from the registry: its table's entry and that entry's module. A visitor's
 * record (a form's submission) is the form being sent; the website's own settings, team and SEO,
 * and tables no entry shows, are no content and tell nobody.
 */
export function eventOf(entries: RegisteredEntries, revision: Revision): WebhookEvent | null {
  const context = entryOfRow(entries, revision.tableName, revision.values as Record<string, unknown>);
  const resource = context?.resource;
  const module = resource && 'module' in resource && typeof resource.module === 'string' ? resource.module : null;
  if (!resource || !module) return null;
  const entry = resource.name;
  if (resource.createdBy === 'visitor') return revision.action === 'create' ? { type: FORM_SUBMITTED, module, entry } : null;
  const action: ContentAction = revision.action === 'delete' ? 'deleted' : wentLive(revision) ? 'published' : 'updated';
  return { type: contentEvent(module, action), module, entry };
}
