import type { FieldError, Success } from '../contract/envelope';
import { uuidv7 } from '../contract/uuid';
import { ApiError, ifMatch, ValidationError } from '../api/send';
import { db, type OutboxEntry, type WireRow } from './database';

/**
 * The outbox (DESIGN §6), shared by the page and the service worker: every mutation is stored here
 * before anything is sent, and replayed in order per entity by whichever of the two drains first.
 */

/** A mutation as described by api/resource.ts, with what the sync panel and the replay need besides. */
export type NewEntry = Pick<OutboxEntry, 'resource' | 'entityId' | 'kind' | 'method' | 'path' | 'itemPath' | 'body' | 'baseVersion' | 'label' | 'fallback'>;

/** One call of a replay, as a Send function receives it. */
export interface OutboxRequest {
  method: string;
  path: string;
  body?: Record<string, unknown>;
  headers: Record<string, string>;
  fallback: string;
}

/** Sends one call; resolves with the success envelope, throws an ApiError for any other answer (status 0: none). */
export type Send = (request: OutboxRequest) => Promise<Success<unknown>>;

/**
 * Why a drain ended early; every reason leaves the entry pending for the next try.
 * offline: no answer; unavailable: 5xx, 408, 429, or a 409 for a key still in flight;
 * unauthorized: 401, the session is over.
 */
export type StopReason = 'offline' | 'unavailable' | 'unauthorized';

export interface DrainResult {
  /** When the drain got the lock and began reading the outbox (ms since epoch). */
  startedAt: number;
  /** Calls answered 2xx. */
  sent: number;
  stopped: StopReason | null;
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

const byEntity = (resource: string, entityId: string) => db.outbox.where('[resource+entityId]').equals([resource, entityId]);

/** One entity's entries, oldest first. */
export function entityEntries(resource: string, entityId: string): Promise<OutboxEntry[]> {
  return byEntity(resource, entityId).sortBy('seq');
}

function isWireRow(value: unknown, id?: string): value is WireRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const row = value as Record<string, unknown>;
  return typeof row._id === 'string' && typeof row.version === 'number' && (id === undefined || row._id === id);
}

function describe(entry: OutboxEntry | NewEntry): NewEntry {
  const { resource, entityId, kind, method, path, itemPath, body, baseVersion, label, fallback } = entry;
  return { resource, entityId, kind, method, path, itemPath, body, baseVersion, label, fallback };
}

/** The operations of one entity collapsed into one, in order: what a fix after a refusal replaces them with. */
function fold(entries: readonly (OutboxEntry | NewEntry)[]): NewEntry | null {
  let result: NewEntry | null = null;
  for (const entry of entries.map(describe)) {
    if (result === null || entry.kind === 'create') result = entry;
    // Deleting what the server never had: nothing to send at all.
    else if (entry.kind === 'delete') result = result.kind === 'create' ? null : entry;
    else if (result.kind === 'delete') result = entry;
    else {
      const previous: NewEntry = result;
      const baseVersion: number | null = previous.kind === 'create' ? null : entry.baseVersion;
      result = { ...previous, body: { ...previous.body, ...entry.body }, baseVersion, label: entry.label };
    }
    if (result === null) return null;
  }
  return result;
}

/**
 * Stores a mutation durably: resolves with its seq only once the IndexedDB transaction committed
 * (null when it cancelled the entity's unsent create, so nothing is left to send). The cached
 * copies show it from then on, since reads lay the outbox over them (db/view.ts).
 *
 * A change to an entity whose earlier change the server refused (failed), or whose conflict the
 * person resolved by editing the server's version, replaces those: they are folded into one entry
 * in the first one's place, so the fix is sent instead of waiting behind the refusal.
 */
export async function enqueue(mutation: NewEntry): Promise<number | null> {
  return db.transaction('rw', [db.outbox, db.records], async () => {
    let baseVersion = mutation.baseVersion;
    if (baseVersion !== null) {
      // An edit based on a version our own outbox wrote continues our change: based on the newest.
      const record = await db.records.get([mutation.resource, mutation.entityId]);
      if (record?.ownFrom !== undefined && baseVersion >= record.ownFrom && baseVersion < record.row.version) baseVersion = record.row.version;
    }
    const incoming: NewEntry = { ...mutation, baseVersion };
    const fresh = { idempotencyKey: uuidv7(), status: 'pending' as const, attempts: 0, createdAt: Date.now() };

    const existing = await entityEntries(mutation.resource, mutation.entityId);
    const head = existing[0];
    const seenTheirs =
      head?.status === 'conflict' && baseVersion !== null && head.current != null && baseVersion >= head.current.version;
    if (head?.seq !== undefined && (head.status === 'failed' || seenTheirs)) {
      const kept = seenTheirs ? [] : existing;
      const merged = fold([...kept, incoming]);
      await db.outbox.bulkDelete(existing.map((entry) => entry.seq!));
      if (!merged) return null;
      await db.outbox.add({ ...merged, ...fresh, seq: head.seq });
      return head.seq;
    }
    return (await db.outbox.add({ ...incoming, ...fresh })) as number;
  });
}

/** The next entry to send: the oldest one that is first of its entity and pending. */
async function nextSendable(): Promise<OutboxEntry | null> {
  const heads = new Set<string>();
  let found: OutboxEntry | null = null;
  await db.outbox.orderBy('seq').until(() => found !== null).each((entry) => {
    const entity = `${entry.resource}\u0000${entry.entityId}`;
    if (heads.has(entity)) return;
    heads.add(entity);
    if (entry.status === 'pending') found = entry;
  });
  return found;
}

function toRequest(entry: OutboxEntry): OutboxRequest {
  const headers: Record<string, string> = { 'Idempotency-Key': entry.idempotencyKey };
  if (entry.baseVersion !== null) headers['If-Match'] = ifMatch(entry.baseVersion);
  return { method: entry.method, path: entry.path, body: entry.body, headers, fallback: entry.fallback };
}

/** Removes an entity from every cached list page of its resource. */
async function forgetInPages(resource: string, id: string): Promise<void> {
  await db.cache
    .where('resource')
    .equals(resource)
    .modify((page) => {
      if (!page.ids.includes(id)) return;
      page.ids = page.ids.filter((other) => other !== id);
      page.pagination = { ...page.pagination, totalItems: Math.max(0, page.pagination.totalItems - 1) };
    });
}

/** Writes what the server now holds for an entity (null: it is gone). */
async function writeServerRow(resource: string, id: string, row: WireRow | null, own?: { from: number | null; created: boolean }): Promise<void> {
  if (!row) {
    await db.records.delete([resource, id]);
    await forgetInPages(resource, id);
    return;
  }
  const previous = await db.records.get([resource, id]);
  let ownFrom: number | undefined;
  if (own) {
    // A chain of our own writes stays ours as long as each was based on the previous one.
    const continues = previous?.ownFrom !== undefined && previous.row.version === own.from;
    ownFrom = continues ? previous.ownFrom : (own.from ?? row.version);
  }
  await db.records.put({
    resource,
    id,
    row,
    fetchedAt: Date.now(),
    ownFrom,
    createdLocally: own?.created ? Date.now() : previous?.createdLocally,
  });
}

/** Caches what the server answered for an entity outside a replay: a row, or null when it is gone. */
export async function rememberServerRow(resource: string, id: string, row: unknown): Promise<void> {
  await db.transaction('rw', [db.records, db.cache], async () => {
    if (row === null || isWireRow(row, id)) await writeServerRow(resource, id, row);
    // An answer of another shape: forget the copy, the next read fetches it.
    else await db.records.delete([resource, id]);
  });
}

/** A 2xx: the entry is done; its entity's later entries continue from the version the server gave. */
async function settle(entry: OutboxEntry, data: unknown): Promise<void> {
  await db.transaction('rw', [db.outbox, db.records, db.cache, db.meta], async () => {
    await db.outbox.delete(entry.seq!);
    if (entry.kind === 'delete') {
      await writeServerRow(entry.resource, entry.entityId, null);
    } else if (isWireRow(data, entry.entityId)) {
      await writeServerRow(entry.resource, entry.entityId, data, { from: entry.baseVersion, created: entry.kind === 'create' });
      await byEntity(entry.resource, entry.entityId)
        .filter((later) => later.seq! > entry.seq! && later.baseVersion !== null)
        .modify({ baseVersion: data.version });
    } else {
      // An answer without the row: forget the stale copy, the next read fetches it.
      await db.records.delete([entry.resource, entry.entityId]);
    }
    await db.meta.put({ key: 'lastSync', at: Date.now() });
  });
}

function fieldErrors(error: ApiError): FieldError[] {
  if (error instanceof ValidationError) return error.errors;
  const errors = (error.details as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]).filter((e) => typeof e?.path === 'string' && typeof e.message === 'string') : [];
}

type Verdict = { stop: StopReason } | { conflict: WireRow } | { failed: true } | { done: true };

function judge(entry: OutboxEntry, error: unknown): Verdict {
  if (!(error instanceof ApiError) || error.status === 0) return { stop: 'offline' };
  const { status } = error;
  if (status === 401) return { stop: 'unauthorized' };
  if (status === 409) {
    const current = (error.details as { data?: unknown } | undefined)?.data;
    // Without the current row it is the same key still in flight (DESIGN §4), not a version conflict.
    return isWireRow(current, entry.entityId) ? { conflict: current } : { stop: 'unavailable' };
  }
  if (status === 408 || status === 425 || status === 429 || status >= 500) return { stop: 'unavailable' };
  // Deleting what is already gone did what it was meant to.
  if (status === 404 && entry.kind === 'delete') return { done: true };
  return { failed: true };
}

/**
 * Replays the outbox: the oldest pending entry of each entity, in seq order, until none is left or
 * the server cannot be reached. An entity whose earlier entry is in conflict or failed waits; the
 * others go on. Never runs twice at once (withOutboxLock), so page and worker can both call it.
 */
export function drain(send: Send): Promise<DrainResult> {
  return withOutboxLock(async () => {
    const result: DrainResult = { startedAt: Date.now(), sent: 0, stopped: null };
    for (let entry = await nextSendable(); entry; entry = await nextSendable()) {
      const seq = entry.seq!;
      await db.outbox.update(seq, { attempts: entry.attempts + 1 });
      let verdict: Verdict;
      let data: unknown = null;
      try {
        data = (await send(toRequest(entry))).data;
        verdict = { done: true };
      } catch (error) {
        verdict = judge(entry, error);
        if ('stop' in verdict) return { ...result, stopped: verdict.stop };
        if ('conflict' in verdict || 'failed' in verdict) {
          const apiError = error as ApiError;
          const update: Partial<OutboxEntry> =
            'conflict' in verdict
              ? { status: 'conflict', current: verdict.conflict, error: { message: apiError.message, errors: [], status: apiError.status } }
              : { status: 'failed', error: { message: apiError.message, errors: fieldErrors(apiError), status: apiError.status } };
          await db.outbox.update(seq, update);
          continue;
        }
      }
      await settle(entry, data);
      result.sent += 1;
    }
    return result;
  });
}

async function conflicted(seq: number): Promise<OutboxEntry | null> {
  const entry = await db.outbox.get(seq);
  return entry?.status === 'conflict' ? entry : null;
}

/**
 * Conflict, "keep mine": the server's version becomes the cached one and the entry is sent again
 * against it (a new Idempotency-Key: it is another request). A create whose id the server already
 * has becomes an update of that entity.
 */
export async function keepMine(seq: number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.records, db.cache], async () => {
    const entry = await conflicted(seq);
    if (!entry?.current) return;
    await writeServerRow(entry.resource, entry.entityId, entry.current);
    const asUpdate = entry.kind === 'create';
    const { _id: _ignored, ...values } = entry.body ?? {};
    await db.outbox.update(seq, {
      status: 'pending',
      baseVersion: entry.current.version,
      idempotencyKey: uuidv7(),
      current: undefined,
      error: undefined,
      ...(asUpdate ? { kind: 'update' as const, method: 'PUT', path: entry.itemPath, body: values } : {}),
    });
  });
}

/** Conflict, "take theirs": the server's version becomes the cached one; this entity's local changes are dropped. */
export async function takeTheirs(seq: number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.records, db.cache], async () => {
    const entry = await conflicted(seq);
    if (!entry) return;
    await writeServerRow(entry.resource, entry.entityId, entry.current ?? null);
    // What followed was built on the change just dropped.
    await byEntity(entry.resource, entry.entityId).delete();
  });
}

/** A failed entry is sent again as it is (a new Idempotency-Key). */
export async function retry(seq: number): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(seq);
    if (entry?.status !== 'failed') return;
    await db.outbox.update(seq, { status: 'pending', idempotencyKey: uuidv7(), error: undefined });
  });
}

/**
 * Drops an entry; the cached copies show the server's version again. Dropping a create drops the
 * entity's later entries too: there is nothing left for them to change.
 */
export async function discard(seq: number): Promise<OutboxEntry | null> {
  return db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(seq);
    if (!entry) return null;
    if (entry.kind === 'create') await byEntity(entry.resource, entry.entityId).delete();
    else await db.outbox.delete(seq);
    return entry;
  });
}

/** The entries of one resource (all of them without a name), oldest first. */
export function outboxEntries(resource?: string): Promise<OutboxEntry[]> {
  return resource ? db.outbox.where('resource').equals(resource).sortBy('seq') : db.outbox.orderBy('seq').toArray();
}

/** How many changes are not on the server yet: pending, in conflict or failed. */
export function countUnsynced(): Promise<number> {
  return db.outbox.count();
}
