import type { FastifyInstance } from 'fastify';
import { afterCommit } from '../store/request-transaction';
import type { ChangeFeed } from './changes';

/**
 * What this server remembers of a website's rows (a key's website, the tag of a delivery answer)
 * for as long as nothing of that website changed: a change committed through this server forgets
 * it before the change's answer leaves; one made elsewhere (another server, a job) as soon as the
 * change feed tells it; a gap in the feed forgets everything. `ttlMs` bounds what a change told
 * nowhere (a post whose publishing time comes) can leave standing.
 */
export interface Memo<V> {
  /** Taken before reading what `keep` will be given: a change heard after it means the read may predate it. */
  mark(): number;
  keep(key: string, website: string, value: V, mark: number): void;
  get(key: string): V | undefined;
}

export interface Memos {
  memo<V>(options: { max: number; ttlMs: number }): Memo<V>;
}

interface Kept<V> {
  website: string;
  value: V;
  mark: number;
  until: number;
}

export function websiteMemos(app: FastifyInstance, changes: ChangeFeed, now: () => number): Memos {
  /** How many changes this server has heard; marks are taken on this count. */
  let heard = 0;
  let forgotAllAt = 0;
  const changedAt = new Map<string, number>();
  const changed = (website: string) => changedAt.set(website, ++heard);
  changes.subscribe((change) => {
    if (change === 'gap') {
      forgotAllAt = ++heard;
      changedAt.clear();
    } else if (change.website) changed(change.website);
  });
  // A request's change forgets its website once committed, before its answer is sent: the
  // client that just switched a key off is refused with it at once, not a moment later.
  app.addHook('preHandler', async (request) => {
    const website = request.website?.id;
    if (website && request.method !== 'GET' && request.method !== 'HEAD') afterCommit(() => changed(website));
  });

  return {
    memo<V>({ max, ttlMs }: { max: number; ttlMs: number }): Memo<V> {
      const kept = new Map<string, Kept<V>>();
      return {
        mark: () => heard,
        keep(key, website, value, mark) {
          if (mark < forgotAllAt || (changedAt.get(website) ?? 0) > mark) return;
          kept.delete(key);
          kept.set(key, { website, value, mark, until: now() + ttlMs });
          // The oldest goes first: a Map iterates in the order its keys were set.
          if (kept.size > max) kept.delete(kept.keys().next().value!);
        },
        get(key) {
          const found = kept.get(key);
          if (!found) return undefined;
          if (found.mark < forgotAllAt || (changedAt.get(found.website) ?? 0) > found.mark || now() > found.until) {
            kept.delete(key);
            return undefined;
          }
          return found.value;
        },
      };
    },
  };
}
