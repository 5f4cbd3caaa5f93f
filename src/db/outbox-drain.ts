import { formData } from '../api/form-data';
import { ApiError, ifMatch } from '../api/send';
import type { Success } from '../contract/envelope';
import { db, type OutboxEntry, type OutboxStatus } from './database';
import { failOrphans, keyOf } from './outbox';
import { settle } from './outbox-cache';
import { heldByLists } from './outbox-reorder';
import { held, judge, lostAgain } from './outbox-verdict';

/**
 * Replaying the outbox (DESIGN §6): which entry goes next, sending it, and what its answer leaves
 * (outbox-verdict.ts; a 2xx: outbox-cache.ts settle). The page and the service worker both run it.
 */

/**
 * This many entries in a row sent twice without an answer, and the drain stops as offline: the
 * connection is gone (at 10 % of answers lost, three entries in a row losing both of theirs happen
 * about once in a million).
 */
export const OFFLINE_AFTER = 3;

/** One call of a replay, as a Send function receives it. */
export interface OutboxRequest {
  method: string;
  path: string;
  /** JSON; an upload's multipart form. */
  body?: Record<string, unknown> | FormData;
  headers: Record<string, string>;
  fallback: string;
}

/** Sends one call; resolves with the success envelope, throws an ApiError for any other answer (status 0: none). */
export type Send = (request: OutboxRequest) => Promise<Success<unknown>>;

/**
 * Why a drain ended early; every reason leaves the entry pending for the next try.
 * offline: the device says it is offline, or OFFLINE_AFTER entries in a row got no answer (none at
 * all, or one that is not JSON: not our server but a captive portal or a proxy) even when sent
 * again at once; unavailable: 429, the server wants this device to slow down; unauthorized: 401,
 * the session is over. Any other answer, and an entry that alone got none, concern that entity
 * only, and the drain goes on with the others.
 */
export type StopReason = 'offline' | 'unavailable' | 'unauthorized';

export interface DrainResult {
  /** When the drain got the lock and began reading the outbox (ms since epoch). */
  startedAt: number;
  /** Calls answered 2xx. */
  sent: number;
  stopped: StopReason | null;
  /** Not stopped, but an entity waits out its back-off: when the first one is due (ms since epoch). */
  retryAt: number | null;
}

const LOCK_NAME = 'sitekeeper-outbox';
let inProcess: Promise<unknown> = Promise.resolve();

/**
 * Runs fn while no other drain runs: across the page's tabs and the service worker with Web Locks,
 * within one context with a promise chain where the browser has none.
 */
function withOutboxLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : (navigator as { locks?: LockManager }).locks;
  if (locks) return locks.request(LOCK_NAME, fn);
  const run = inProcess.then(fn, fn);
  inProcess = run.catch(() => undefined);
  return run;
}

/** What a replay does next, read from the whole outbox (small by nature, ADR 007). */
interface Plan {
  /** The oldest entry that is first of its entity, pending, not backing off, and waits for no create. */
  next: OutboxEntry | null;
  /** Pending entries first of their entity that wait for a create that failed: they fail with it. */
  orphans: OutboxEntry[];
  /** When the first entity that backs off is due again. */
  retryAt: number | null;
}

function plan(entries: readonly OutboxEntry[], now: number): Plan {
  // Each entity's create still in the outbox, which its dependents wait for: a record's, or the
  // upload that makes one (a photo of the media library that a dish saved meanwhile names).
  const creates = new Map<string, OutboxStatus>();
  for (const entry of entries) {
    if ((entry.kind === 'create' || entry.kind === 'upload') && !creates.has(keyOf(entry))) creates.set(keyOf(entry), entry.status);
  }
  const listWaits = heldByLists(entries);
  const heads = new Set<string>();
  const result: Plan = { next: null, orphans: [], retryAt: null };
  for (const entry of entries) {
    const key = keyOf(entry);
    if (heads.has(key)) continue;
    heads.add(key);
    if (entry.status !== 'pending' || listWaits.has(entry.seq!)) continue;
    const needs = (entry.dependsOn ?? []).map((dependency) => creates.get(dependency));
    // A reorder waits for a refused child instead (heldByLists): it fails with none of them.
    if (needs.includes('failed') && entry.kind !== 'reorder') {
      result.orphans.push(entry);
      // Its own dependents fail with it in this pass too.
      if (entry.kind === 'create') creates.set(key, 'failed');
    } else if (needs.some((status) => status !== undefined)) {
      continue;
    } else if (entry.retryAt !== undefined && entry.retryAt > now) {
      result.retryAt = Math.min(result.retryAt ?? entry.retryAt, entry.retryAt);
    } else {
      result.next ??= entry;
    }
  }
  return result;
}

async function toRequest(entry: OutboxEntry): Promise<OutboxRequest> {
  const headers: Record<string, string> = { 'Idempotency-Key': entry.idempotencyKey };
  if (entry.baseVersion !== null) headers['If-Match'] = ifMatch(entry.baseVersion);
  if (entry.baseOrder !== undefined) headers['If-Match'] = ifMatch(entry.baseOrder);
  const body = entry.kind === 'upload' ? formData(entry.body, await db.files.where('seq').equals(entry.seq!).sortBy('id')) : entry.body;
  return { method: entry.method, path: entry.path, body, headers, fallback: entry.fallback };
}

/** No answer at all, or one that is not our API's JSON (api/send.ts: status 0). */
const unanswered = (error: unknown) => !(error instanceof ApiError) || error.status === 0;
/** The device itself knows it has no connection (navigator.onLine is false only then; true proves nothing). */
const deviceOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Sends an entry, and once more at once when no answer came: the server may have acted and the
 * answer been lost, but a repeated Idempotency-Key is answered from the first request (and waits
 * for it while it runs), never acted on twice (ADR 016).
 */
async function deliver(send: Send, request: OutboxRequest): Promise<Success<unknown>> {
  try {
    return await send(request);
  } catch (error) {
    if (!unanswered(error) || deviceOffline()) throw error;
    return send(request);
  }
}

const readAll = () => db.outbox.orderBy('seq').toArray();

/**
 * Replays the outbox: the oldest pending entry of each entity, in seq order, until none is left or
 * the connection is gone. An entity whose earlier entry is in conflict, failed or backing off
 * waits, and so does an entry whose dependsOn names a create still in the outbox, and one its
 * list's order holds back (heldByLists); the others go on. An entry that gets no answer is sent
 * again at once under its key; without an answer again, it backs off alone (LOST_BACKOFF_MS) and
 * the drain goes on, until OFFLINE_AFTER entries in a row got none (ADR 019). Never runs twice at
 * once (withOutboxLock), so page and worker can both call it.
 */
export function drain(send: Send): Promise<DrainResult> {
  return withOutboxLock(async () => {
    const startedAt = Date.now();
    let sent = 0;
    // The entries sent twice in vain since the server last answered, as they were before.
    let silent: Pick<OutboxEntry, 'seq' | 'lost' | 'retryAt'>[] = [];
    // The outbox is read once and then kept in step with what this drain does, entity by entity:
    // reading all of it before every send made a long queue quadratic. What others change
    // meanwhile (a discard, a new edit) is caught before each send and when the queue runs dry.
    let entries = await readAll();
    for (;;) {
      const { next, orphans, retryAt } = plan(entries, Date.now());
      if (orphans.length > 0) {
        await failOrphans(orphans);
        entries = await readAll();
        continue;
      }
      if (!next) {
        const latest = await readAll();
        if (JSON.stringify(latest) === JSON.stringify(entries)) return { startedAt, sent, stopped: null, retryAt };
        entries = latest;
        continue;
      }
      if (JSON.stringify(await db.outbox.get(next.seq!)) !== JSON.stringify(next)) {
        entries = await readAll();
        continue;
      }
      let data: unknown = null;
      try {
        data = (await deliver(send, await toRequest(next))).data;
      } catch (error) {
        if (unanswered(error)) {
          if (deviceOffline()) return { startedAt, sent, stopped: 'offline', retryAt: null };
          silent.push({ seq: next.seq, lost: next.lost, retryAt: next.retryAt });
          if (silent.length >= OFFLINE_AFTER) {
            // Nothing answers at all: none of them is to blame, and none should wait longer once the connection is back.
            await db.outbox.bulkUpdate(silent.map(({ seq, ...before }) => ({ key: seq!, changes: before })));
            return { startedAt, sent, stopped: 'offline', retryAt: null };
          }
          const changes = lostAgain(next);
          await db.outbox.update(next.seq!, changes);
          entries = entries.map((entry) => (entry.seq === next.seq ? { ...entry, ...changes } : entry));
          continue;
        }
        silent = [];
        const verdict = judge(next, error as ApiError);
        if ('stop' in verdict) return { startedAt, sent, stopped: verdict.stop, retryAt: null };
        if (!('done' in verdict)) {
          // An answer, whatever it says, ends the entry's run of lost ones.
          const changes = { ...held(next, verdict, error as ApiError), lost: undefined };
          await db.outbox.update(next.seq!, changes);
          entries = entries.map((entry) => (entry.seq === next.seq ? { ...entry, ...changes } : entry));
          continue;
        }
      }
      silent = [];
      // settle() moved the entity's later entries onto the server's version: take them as stored.
      const later = new Map((await settle(next, data)).map((entry) => [entry.seq, entry]));
      sent += 1;
      entries = entries.filter((entry) => entry.seq !== next.seq).map((entry) => later.get(entry.seq) ?? entry);
    }
  });
}
