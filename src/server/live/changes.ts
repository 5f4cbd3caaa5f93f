import type { FastifyBaseLogger } from 'fastify';
import { REVISION_ACTIONS, type RevisionAction } from '../../contract/history';
import type { Store } from '../store/open';

/** A committed change as migration 0018's trigger tells it, on every server of the database. */
export interface Heard {
  /** The revision's id: the event id a device resumes from. */
  id: string;
  table: string;
  record: string;
  website: string | null;
  action: RevisionAction;
  version: number | null;
}

export type Listener = (change: Heard | 'gap') => void;

/** How many changes a device may miss (a phone in a tunnel) and still be told each one after. */
const KEPT = 2000;

/**
 * The changes this server hears, once, for every device connected to it: the latest are kept so a
 * device that reconnects with `Last-Event-ID` is told what it missed; a device whose last id is not
 * among them (too old, or heard before this server started) is told to read again instead.
 */
export interface ChangeFeed {
  subscribe(listener: Listener): () => void;
  /** The changes after `lastId`, oldest first; null when it is not among those kept. */
  since(lastId: string): Heard[] | null;
  latest(): string | null;
  close(): Promise<void>;
}

function parse(payload: string): Heard | null {
  try {
    const { id, table, record, website, action, version } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof id !== 'string' || typeof table !== 'string' || typeof record !== 'string' || !REVISION_ACTIONS.includes(action as RevisionAction)) return null;
    return { id, table, record, website: typeof website === 'string' ? website : null, action: action as RevisionAction, version: typeof version === 'number' ? version : null };
  } catch {
    return null;
  }
}

export async function openChangeFeed(store: Store, log: FastifyBaseLogger): Promise<ChangeFeed> {
  const kept: Heard[] = [];
  const listeners = new Set<Listener>();
  const tell = (change: Heard | 'gap') => {
    for (const listener of listeners) listener(change);
  };
  const stop = await store.listen(
    'changes',
    (payload) => {
      const change = parse(payload);
      if (!change) return void log.warn({ payload }, 'a change notification that is not one');
      kept.push(change);
      if (kept.length > KEPT) kept.splice(0, kept.length - KEPT);
      tell(change);
    },
    () => {
      // What was kept is no longer the whole story since then.
      kept.length = 0;
      tell('gap');
    },
  );
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    since(lastId) {
      const at = kept.findIndex((change) => change.id === lastId);
      return at === -1 ? null : kept.slice(at + 1);
    },
    latest: () => kept.at(-1)?.id ?? null,
    close: stop,
  };
}
