import type { FastifyInstance } from 'fastify';
import { scopedMemos } from '../live/memo';
import type { Store } from '../store/open';
import { readSession, type ReadSession, type SessionRecord } from './sessions';

/** One scope for every token: any change of sessions, users or team roles forgets them all. */
const ALL = 'principals';

/**
 * Who a bearer token is (its session, user and team role: the query every request ran first),
 * remembered by token hash, at most 10,000 and for 30 s, until anything of sessions, users or team
 * roles changes (ADR 034): a change committed through this server, one made elsewhere (another
 * server, a job, by hand) when migration 0020's trigger tells `principals`, or a gap in listening.
 * Every check (revoked, idle, expired, the user's status) is still made on each request, on the
 * record remembered. Unknown tokens are not kept: guessing fills no memory.
 */
export async function principals(app: FastifyInstance, store: Store, now: () => number): Promise<{ read: ReadSession; close: () => Promise<void> }> {
  const scoped = scopedMemos(app, now, () => ALL);
  const kept = scoped.memo<SessionRecord>({ max: 10_000, ttlMs: 30_000 });
  const close = await store.listen('principals', () => scoped.changed(ALL), scoped.gap);
  const fresh = readSession(store.db);
  const read: ReadSession = async (tokenHash) => {
    const found = kept.get(tokenHash);
    if (found) return found;
    const mark = kept.mark();
    const record = await fresh(tokenHash);
    if (record) kept.keep(tokenHash, ALL, record, mark);
    return record;
  };
  return { read, close };
}
