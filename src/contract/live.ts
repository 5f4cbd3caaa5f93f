import { z } from 'zod/mini';
import { REVISION_ACTIONS } from './history';

/**
 * Live updates (server/live/): a signed-in device holds `GET /api/events` open as Server-Sent
 * Events and hears, within a second, each change of a record it may read, made anywhere — another
 * device, the API, a visitor's form. Ids only: the device reads what changed through the usual
 * routes, with its own rights. Asked for JSON instead, the route says where the stream stands.
 */
export const EVENTS_PATH = '/api/events';

/** A change: the registry entries it belongs to that this session may read, the record, its website, what happened, its version after. */
export const ChangeSchema = z.object({
  entries: z.array(z.string()),
  record: z.string(),
  website: z.nullable(z.string()),
  action: z.enum(REVISION_ACTIONS),
  version: z.nullable(z.int()),
});
export type Change = z.infer<typeof ChangeSchema>;

/** The stream's events: `change` (a Change, its revision's id as the event id) and `reset` (some may have been missed: read again what is on show). */
export const LIVE_EVENTS = { change: 'change', reset: 'reset' } as const;

/** The JSON answer: the id of the last change this server has heard, to resume from. */
export const StreamPositionSchema = z.object({ lastEventId: z.nullable(z.string()) });

/** Whether a change is of what a copy of an entry shows: its entry, and its website where the copy is bound to one. */
export function concerns(resource: { name: string; boundKey: string; boundParams: readonly string[]; websiteParam: string | null }, change: Change): boolean {
  if (!change.entries.includes(resource.name)) return false;
  const at = resource.websiteParam ? resource.boundParams.indexOf(resource.websiteParam) : -1;
  return at === -1 || change.website === null || resource.boundKey.split('/')[at] === change.website;
}
