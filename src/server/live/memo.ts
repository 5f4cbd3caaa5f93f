import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  keep(key: string, scope: string, value: V, mark: number): void;
  get(key: string): V | undefined;
}

export interface Memos {
  memo<V>(options: { max: number; ttlMs: number }): Memo<V>;
}

interface Kept<V> {
  scope: string;
  value: V;
  mark: number;
  until: number;
}

/**
 * Values remembered under a scope (a website; for who tokens are, one scope for all) until their
 * scope changes. `changed` and `gap` are told by whoever hears of changes; a change request through
 * this server changes the scope `scopeOf` names for it once committed, before its answer is sent
 * (so the client that just switched a key off, or signed out, is refused at once), and again when
 * its answer has gone, for a change written outside a held transaction.
 */
export function scopedMemos(app: FastifyInstance, now: () => number, scopeOf: (request: FastifyRequest) => string | undefined) {
  /** How many changes this server has heard; marks are taken on this count. */
  let heard = 0;
  let forgotAllAt = 0;
  const changedAt = new Map<string, number>();
  const changed = (scope: string) => void changedAt.set(scope, ++heard);
  const gap = () => {
    forgotAllAt = ++heard;
    changedAt.clear();
  };
  const changing = (request: FastifyRequest) => (request.method === 'GET' || request.method === 'HEAD' ? undefined : scopeOf(request));
  app.addHook('preHandler', (request, _reply, done) => {
    const scope = changing(request);
    if (scope) afterCommit(() => changed(scope));
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const scope = changing(request);
    if (scope) changed(scope);
    done();
  });

  const memos: Memos = {
    memo<V>({ max, ttlMs }: { max: number; ttlMs: number }): Memo<V> {
      const kept = new Map<string, Kept<V>>();
      return {
        mark: () => heard,
        keep(key, scope, value, mark) {
          if (mark < forgotAllAt || (changedAt.get(scope) ?? 0) > mark) return;
          kept.delete(key);
          kept.set(key, { scope, value, mark, until: now() + ttlMs });
          // The oldest goes first: a Map iterates in the order its keys were set.
          if (kept.size > max) kept.delete(kept.keys().next().value!);
        },
        get(key) {
          const found = kept.get(key);
          if (!found) return undefined;
          if (found.mark < forgotAllAt || (changedAt.get(found.scope) ?? 0) > found.mark || now() > found.until) {
            kept.delete(key);
            return undefined;
          }
          return found.value;
        },
      };
    },
  };
  return { ...memos, changed, gap };
}

/** What this server remembers of websites' rows, told of their changes by the change feed. */
export function websiteMemos(app: FastifyInstance, changes: ChangeFeed, now: () => number): Memos {
  const scoped = scopedMemos(app, now, (request) => request.website?.id);
  changes.subscribe((change) => {
    if (change === 'gap') scoped.gap();
    else if (change.website) scoped.changed(change.website);
  });
  return scoped;
}
