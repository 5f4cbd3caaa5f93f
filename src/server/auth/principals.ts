import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/open';
import { afterCommit } from '../store/request-transaction';
import { readSession, type ReadSession, type SessionRecord } from './sessions';

/** How many tokens a server remembers, and for how long at most. */
const KEPT = 10_000;
const KEPT_MS = 30_000;

/**
 * Who a bearer token is (its session, user and team role: the query every request ran first),
 * remembered until anything of sessions, users or team roles changes (ADR 034). A change
 * committed through this server forgets it all before the change's answer leaves; one made
 * elsewhere (another server, a job, by hand) when migration 0020's trigger tells `principals`; a
 * gap in listening forgets it all too. Every check (revoked, idle, expired, the user's status) is
 * still made on each request, on the record remembered.
 */
export async function principals(app: FastifyInstance, store: Store, now: () => number): Promise<{ read: ReadSession; close: () => Promise<void> }> {
  const kept = new Map<string, { record: SessionRecord; until: number }>();
  /** Changes heard so far: a record read before one is not kept. */
  let heard = 0;
  const forget = () => {
    heard += 1;
    kept.clear();
  };
  const close = await store.listen('principals', forget, forget);
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') afterCommit(forget);
  });
  // A change written outside a held transaction is committed by the time its answer is sent.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') forget();
  });
  const fresh = readSession(store.db);
  const read: ReadSession = async (tokenHash) => {
    const found = kept.get(tokenHash);
    if (found && now() <= found.until) return found.record;
    const mark = heard;
    const record = await fresh(tokenHash);
    // Unknown tokens are not kept: guessing fills no memory.
    if (record && mark === heard) {
      kept.delete(tokenHash);
      kept.set(tokenHash, { record, until: now() + KEPT_MS });
      if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
    }
    return record;
  };
  return { read, close };
}
