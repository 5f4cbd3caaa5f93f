import { formData, type FormFile } from '../api/form-data';
import type { FieldError, Success } from '../contract/envelope';
import { messages } from '../contract/messages';
import { orderTag } from '../contract/order';
import { uuidv7 } from '../contract/uuid';
import { ApiError, ifMatch, sourceText, uploadError, ValidationError } from '../api/send';
import { db, type MutationKind, type OutboxEntry, type OutboxStatus, type WireRow } from './database';
import { ensureRoom } from './storage-room';

/**
 * The outbox (DESIGN §6), shared by the page and the service worker: every mutation is stored here
 * before anything is sent, and replayed in order per entity by whichever of the two drains first.
 */

/**
 * After the n-th answer that says "try again later" (5xx, 408, 425, a key still in flight), the
 * entity waits BACKOFF_MS[n - 1] before its entry is sent again: about 1 h 11 min in all, enough
 * for a deploy or a database restart. The answer after the last wait fails the entry. The first
 * wait is short (ADR 019): most such answers are a moment's trouble (a restarting instance, a
 * failover), nothing was written (ADR 016), and a person on a phone watches the change wait.
 */
export const BACKOFF_MS = [5_000, 60_000, 10 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;

/**
 * An entry sent twice in a row without an answer (ADR 019) waits LOST_BACKOFF_MS[n - 1] after the
 * n-th time, the last one repeating: a moment at first, since resending is safe (the server answers
 * a repeated key from the first, ADR 016) and a phone's connection comes back in seconds; longer
 * while only this entry goes unanswered (one too large for a proxy, say), so it costs little. It
 * never fails the entry: no answer says nothing against the change.
 */
export const LOST_BACKOFF_MS = [1_000, 2_000, 5_000, 15_000, 60_000, 5 * 60_000] as const;

/**
 * This many entries in a row sent twice without an answer, and the drain stops as offline: the
 * connection is gone (at 10 % of answers lost, three entries in a row losing both of theirs happen
 * about once in a million).
 */
export const OFFLINE_AFTER = 3;

/** How `dependsOn` names an entity, and how the replay tells one entity's entries from another's. */
export function entityKey(resource: string, entityId: string): string {
  return `${resource}:${entityId}`;
}

const keyOf = (entry: Pick<OutboxEntry, 'resource' | 'entityId'>) => entityKey(entry.resource, entry.entityId);

type Described = Pick<
  OutboxEntry,
  'resource' | 'entityId' | 'kind' | 'method' | 'path' | 'itemPath' | 'body' | 'baseVersion' | 'label' | 'fallback' | 'dependsOn' | 'scope'
>;

/**
 * A create, update or delete as described by db/outbox-entry.ts, with what the sync panel and the
 * replay need besides (reorders: enqueueReorder; uploads: enqueueUpload).
 */
export type NewEntry = Described & { kind: Exclude<MutationKind, 'reorder' | 'upload'> };

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

function describe(entry: Described): Described {
  const { resource, entityId, kind, method, path, itemPath, body, baseVersion, label, fallback, dependsOn, scope } = entry;
  return { resource, entityId, kind, method, path, itemPath, body, baseVersion, label, fallback, dependsOn, scope };
}

/** The operations of one entity collapsed into one, in order: what a fix after a refusal replaces them with. */
function fold(entries: readonly Described[]): Described | null {
  let result: Described | null = null;
  for (const entry of entries.map(describe)) {
    if (result === null || entry.kind === 'create') result = entry;
    // Deleting what the server never had: nothing to send at all.
    else if (entry.kind === 'delete') result = result.kind === 'create' ? null : entry;
    else if (result.kind === 'delete') result = entry;
    else {
      const previous: Described = result;
      const baseVersion: number | null = previous.kind === 'create' ? null : entry.baseVersion;
      const dependsOn = [...new Set([...(previous.dependsOn ?? []), ...(entry.dependsOn ?? [])])];
      result = { ...previous, body: { ...previous.body, ...entry.body }, baseVersion, label: entry.label, dependsOn };
    }
    if (result === null) return null;
  }
  return result;
}

/** What every new entry starts with. */
const fresh = () => ({ idempotencyKey: uuidv7(), status: 'pending' as const, attempts: 0, createdAt: Date.now() });

/** Removes entries and the files they carry. */
async function dropEntries(seqs: readonly number[]): Promise<void> {
  await db.outbox.bulkDelete([...seqs]);
  await db.files.where('seq').anyOf([...seqs]).delete();
}

/**
 * An entity's create is pending again (retried, or fixed by a new change): the entries that failed
 * only because it had failed wait for it again, and so do the ones that waited for those.
 */
async function reviveDependents(entry: Pick<OutboxEntry, 'resource' | 'entityId'>): Promise<void> {
  let keys = [keyOf(entry)];
  while (keys.length > 0) {
    const revived = await db.outbox
      .where('dependsOn')
      .anyOf(keys)
      .distinct()
      .filter((dependent) => dependent.status === 'failed' && dependent.error?.reason === 'parentNotSaved')
      .toArray();
    await db.outbox.bulkUpdate(revived.map((dependent) => ({ key: dependent.seq!, changes: { status: 'pending' as const, error: undefined } })));
    keys = revived.filter((dependent) => dependent.kind === 'create').map(keyOf);
  }
}

/** The pending entries that wait for an entity's create, and theirs in turn, fail: it will never be made. */
async function failDependents(entry: Pick<OutboxEntry, 'resource' | 'entityId'>): Promise<void> {
  let keys = [keyOf(entry)];
  while (keys.length > 0) {
    const orphans = await db.outbox.where('dependsOn').anyOf(keys).distinct().filter((dependent) => dependent.status === 'pending').toArray();
    await failOrphans(orphans);
    keys = orphans.filter((dependent) => dependent.kind === 'create' || dependent.kind === 'upload').map(keyOf);
  }
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

    const existing = await entityEntries(mutation.resource, mutation.entityId);
    const head = existing[0];
    const seenTheirs =
      head?.status === 'conflict' && baseVersion !== null && head.current != null && baseVersion >= head.current.version;
    if (head?.seq !== undefined && (head.status === 'failed' || seenTheirs)) {
      const kept = seenTheirs ? [] : existing;
      const merged = fold([...kept, incoming]);
      await db.outbox.bulkDelete(existing.map((entry) => entry.seq!));
      if (!merged) return null;
      await db.outbox.add({ ...merged, ...fresh(), seq: head.seq });
      if (merged.kind === 'create') await reviveDependents(merged);
      return head.seq;
    }
    return (await db.outbox.add({ ...incoming, ...fresh() })) as number;
  });
}

/** A parent's children in a new order, sent as `{ [field]: ids }` by PUT to `path`. */
export interface NewReorder {
  /** The children's resource. */
  resource: string;
  /** The scope (a website) the children belong to. */
  scope?: string;
  parentId: string;
  /** The children's ids in their new order. */
  ids: readonly string[];
  /** The tag (contract/order.ts orderTag) of the order the person saw before moving: If-Match. */
  base: string;
  path: string;
  /** The body field the server reads the ids from (spec §7: `items`, `categories`). */
  field: string;
  label: OutboxEntry['label'];
  fallback: string;
  /** Creates to wait for besides the children's own (the parent's, say). */
  dependsOn?: readonly string[];
}

/**
 * Stores a reorder durably (entity key `<resource>:order:<parentId>`), and writes the new order
 * into the cached children at once so that lists show it offline: each cached row gets `position`
 * (its index in `ids`; the rows have no order field of their own), and every cached list page of
 * the resource in its default order (no sortBy or sortOrder in its query) holds these children in
 * the new order, in the places they held. A newer reorder replaces the last one not sent yet (or
 * refused, or in conflict) and keeps its base, the order the server held when that one was made
 * (the newer one's base is only that one's order) — unless a child of the list was created or
 * deleted here since: then the server will hold neither base, so that one stays and this one
 * follows it on its own base. It waits for the creates of the children it names, and it is sent
 * in turn with the list's other changes (heldByLists, ADR 019).
 */
export async function enqueueReorder(reorder: NewReorder): Promise<number> {
  const { resource, scope, parentId, ids, path, field, label, fallback } = reorder;
  const entityId = `order:${parentId}`;
  const dependsOn = [...new Set([...(reorder.dependsOn ?? []), ...ids.map((id) => entityKey(resource, id))])];
  return db.transaction('rw', [db.outbox, db.records, db.cache], async () => {
    const last = (await entityEntries(resource, entityId)).at(-1);
    const replaced = last && !(await listChangedSince({ resource, scope }, last.seq!)) ? last : undefined;
    if (replaced) await db.outbox.delete(replaced.seq!);
    await writeOrder(resource, ids);
    const entry: OutboxEntry = {
      resource,
      scope,
      entityId,
      kind: 'reorder',
      method: 'PUT',
      path,
      itemPath: path,
      body: { [field]: [...ids] },
      baseVersion: null,
      baseOrder: replaced?.baseOrder ?? reorder.base,
      label,
      fallback,
      dependsOn,
      ...fresh(),
    };
    return (await db.outbox.add(entry)) as number;
  });
}

/** A reorder's field and ids, as its body holds them. */
function reorderIds(entry: OutboxEntry): [field: string, ids: string[]] {
  const [field, ids] = Object.entries(entry.body ?? {})[0] ?? ['', []];
  return [field, Array.isArray(ids) ? ids.map(String) : []];
}

/**
 * "Keep my order" against the server's: my order of the children both know, then the ones only
 * the server has (added meanwhile) in its order; the ones it no longer has are gone.
 */
export function mergeOrder(mine: readonly string[], theirs: readonly string[]): string[] {
  const current = new Set(theirs);
  const kept = mine.filter((id) => current.has(id));
  const known = new Set(kept);
  return [...kept, ...theirs.filter((id) => !known.has(id))];
}

/** One file to send as multipart, with text fields beside it (enqueueUpload). */
export interface NewUpload {
  resource: string;
  scope?: string;
  /**
   * What the upload is kept under, on its own: the path of a record's image (a newer file for the
   * same place replaces one not sent yet), or for a file that becomes a record of its own (the
   * media library) a new id of this device's, one per file. Changes of records are never kept
   * under it, so none is ever folded into an upload.
   */
  entityId: string;
  path: string;
  /** Text fields sent beside the file (alt, folder, compressImages). */
  fields?: Record<string, string>;
  file: FormFile;
  label: OutboxEntry['label'];
  fallback: string;
  /** The key the same request was already sent with, when it was tried at once and nothing answered. */
  idempotencyKey?: string;
}

/**
 * Stores an upload durably, its file beside it in `files`, once the device has room for it
 * (storage-room.ts: NoRoomError otherwise, and nothing is stored). Resolves with its seq once the
 * transaction committed: from then on the file survives the app being closed.
 */
export async function enqueueUpload(upload: NewUpload): Promise<number> {
  const { resource, scope, entityId, path, fields, file, label, fallback, idempotencyKey } = upload;
  await ensureRoom(file.blob.size);
  return db.transaction('rw', [db.outbox, db.files], async () => {
    await dropEntries((await entityEntries(resource, entityId)).map((entry) => entry.seq!));
    const entry: OutboxEntry = {
      resource,
      scope,
      entityId,
      kind: 'upload',
      method: 'POST',
      path,
      itemPath: path,
      body: fields,
      baseVersion: null,
      label,
      fallback,
      ...fresh(),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    };
    const seq = (await db.outbox.add(entry)) as number;
    await db.files.add({ seq, field: file.field, name: file.name, blob: file.blob });
    return seq;
  });
}

/** The children's new order in the cached rows and list pages (enqueueReorder). */
async function writeOrder(resource: string, ids: readonly string[]): Promise<void> {
  const position = new Map(ids.map((id, index) => [id, index]));
  const records = await db.records.bulkGet(ids.map((id): [string, string] => [resource, id]));
  await db.records.bulkPut(records.flatMap((record) => (record ? [{ ...record, row: { ...record.row, position: position.get(record.id)! } }] : [])));
  await db.cache
    .where('resource')
    .equals(resource)
    .modify((page) => {
      // A page sorted by another field (or backwards) shows that order, not the children's.
      const { sortBy = 'position', sortOrder = 'asc' } = page.query;
      if (sortBy !== 'position' || sortOrder !== 'asc') return;
      const moved = page.ids.filter((id) => position.has(id)).toSorted((a, b) => position.get(a)! - position.get(b)!);
      let next = 0;
      page.ids = page.ids.map((id) => (position.has(id) ? moved[next++]! : id));
    });
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

/** The list a child's create or delete changes and a reorder orders: the children's resource in one scope (their parent). */
const listOf = (entry: Pick<OutboxEntry, 'resource' | 'scope'>) => `${entry.resource}\n${entry.scope ?? ''}`;
/** A change to which children a list holds. */
const changesMembers = (entry: OutboxEntry) => entry.kind === 'create' || entry.kind === 'delete';

/** Whether a child of the list was created or deleted here after the entry `seq`. */
async function listChangedSince(list: Pick<OutboxEntry, 'resource' | 'scope'>, seq: number): Promise<boolean> {
  const key = listOf(list);
  const later = await db.outbox.where('seq').above(seq).filter((entry) => changesMembers(entry) && listOf(entry) === key).count();
  return later > 0;
}

/**
 * The entries a list's order holds back (ADR 019). A reorder is made from the order the person saw,
 * and is taken only from that order (If-Match), which the server holds once this device's earlier
 * creates and deletes of the list's children are in and none of its later ones is. So in a list with
 * a reorder queued, these changes go in the order they were made: a reorder waits for every create
 * and delete of a child queued before it, whatever their state (a refused one until the person
 * retries or discards it); a create or delete waits for every reorder queued before it that is
 * pending or in conflict (keep mine is made from the order the server named, ADR 013), and for the
 * creates and deletes before it that are still pending (the server puts new children last, so
 * creates keep their order). A create that a reorder queued before it names goes first: the
 * reorder waits for it.
 */
function heldByLists(entries: readonly OutboxEntry[]): Set<number> {
  const lists = new Map<string, OutboxEntry[]>();
  for (const entry of entries) if (entry.kind === 'reorder') lists.set(listOf(entry), []);
  for (const entry of entries) if (changesMembers(entry) || entry.kind === 'reorder') lists.get(listOf(entry))?.push(entry);
  const waiting = new Set<number>();
  for (const list of lists.values()) {
    const place = new Map(list.map((entry) => [entry.seq!, entry.seq!]));
    for (const reorder of list.filter((entry) => entry.kind === 'reorder')) {
      const named = new Set(reorder.dependsOn);
      for (const entry of list) {
        if (entry.kind === 'create' && entry.seq! > reorder.seq! && named.has(keyOf(entry))) place.set(entry.seq!, Math.min(place.get(entry.seq!)!, reorder.seq! - 0.5));
      }
    }
    let [reorderBefore, changeBefore, pendingChangeBefore] = [false, false, false];
    for (const entry of list.toSorted((a, b) => place.get(a.seq!)! - place.get(b.seq!)!)) {
      if (entry.kind === 'reorder') {
        if (changeBefore) waiting.add(entry.seq!);
        reorderBefore ||= entry.status !== 'failed';
      } else {
        if (reorderBefore || pendingChangeBefore) waiting.add(entry.seq!);
        changeBefore = true;
        pendingChangeBefore ||= entry.status === 'pending';
      }
    }
  }
  return waiting;
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

/** Fails entries whose parent's create failed: nothing was sent, so the reason is the outbox's own. */
async function failOrphans(orphans: readonly OutboxEntry[]): Promise<void> {
  const error = { message: sourceText(messages.parentNotSaved), errors: [], status: 424, reason: 'parentNotSaved' as const };
  await db.outbox
    .where('seq')
    .anyOf(orphans.map((entry) => entry.seq!))
    .filter((entry) => entry.status === 'pending')
    .modify({ status: 'failed', error });
}

async function toRequest(entry: OutboxEntry): Promise<OutboxRequest> {
  const headers: Record<string, string> = { 'Idempotency-Key': entry.idempotencyKey };
  if (entry.baseVersion !== null) headers['If-Match'] = ifMatch(entry.baseVersion);
  if (entry.baseOrder !== undefined) headers['If-Match'] = ifMatch(entry.baseOrder);
  const body = entry.kind === 'upload' ? formData(entry.body, await db.files.where('seq').equals(entry.seq!).sortBy('id')) : entry.body;
  return { method: entry.method, path: entry.path, body, headers, fallback: entry.fallback };
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
async function writeServerRow(
  resource: string,
  id: string,
  row: WireRow | null,
  own?: { from: number | null; created: boolean; scope?: string },
): Promise<void> {
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
    // The scope a list page must be of to show it as created here (store.ts readPage).
    scope: own?.scope ?? previous?.scope,
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

/**
 * A 2xx: the entry is done; its entity's later entries continue from the version the server gave.
 * Returns those entries as they are now stored.
 */
async function settle(entry: OutboxEntry, data: unknown): Promise<OutboxEntry[]> {
  return db.transaction('rw', [db.outbox, db.files, db.records, db.cache, db.meta], async () => {
    await dropEntries([entry.seq!]);
    if (entry.kind === 'reorder') {
      // A newer reorder made while this one was on its way was based on what this one replaced.
      const [, ids] = reorderIds(entry);
      await byEntity(entry.resource, entry.entityId)
        .filter((later) => later.baseOrder === entry.baseOrder)
        .modify({ baseOrder: orderTag(ids) });
    } else if (entry.kind === 'upload') {
      if (isWireRow(data)) {
        // The record the file changed (a logo) or made (version 1: a file of the media library),
        // under the server's id; changes queued on the version it replaced continue from it.
        const made = data.version === 1;
        await writeServerRow(entry.resource, data._id, data, { from: made ? null : data.version - 1, created: made, scope: entry.scope });
        await byEntity(entry.resource, data._id)
          .filter((later) => later.baseVersion === data.version - 1)
          .modify({ baseVersion: data.version });
      }
    } else if (entry.kind === 'delete') {
      await writeServerRow(entry.resource, entry.entityId, null);
    } else if (isWireRow(data, entry.entityId)) {
      await writeServerRow(entry.resource, entry.entityId, data, { from: entry.baseVersion, created: entry.kind === 'create', scope: entry.scope });
      await byEntity(entry.resource, entry.entityId)
        .filter((later) => later.seq! > entry.seq! && later.baseVersion !== null)
        .modify({ baseVersion: data.version });
    } else {
      // An answer without the row: forget the stale copy, the next read fetches it.
      await db.records.delete([entry.resource, entry.entityId]);
    }
    await db.meta.put({ key: 'lastSync', at: Date.now() });
    return byEntity(entry.resource, entry.entityId).toArray();
  });
}

function fieldErrors(error: ApiError): FieldError[] {
  if (error instanceof ValidationError) return error.errors;
  const errors = (error.details as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]).filter((e) => typeof e?.path === 'string' && typeof e.message === 'string') : [];
}

type Held = { later: true } | { conflict: WireRow } | { order: string[] } | { failed: true };
type Verdict = { stop: StopReason } | Held | { done: true };

/** The order a reorder's 409 says the server holds (`data: { [field]: ids }`), or null. */
function orderOf(entry: OutboxEntry, current: unknown): string[] | null {
  const [field] = reorderIds(entry);
  const ids = (current as Record<string, unknown> | null | undefined)?.[field];
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? (ids as string[]) : null;
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

/** An entry sent twice without an answer waits a little longer each time (LOST_BACKOFF_MS); its entity's later entries wait behind it. */
function lostAgain(entry: OutboxEntry): Pick<OutboxEntry, 'lost' | 'retryAt'> {
  const lost = (entry.lost ?? 0) + 1;
  return { lost, retryAt: Date.now() + LOST_BACKOFF_MS[Math.min(lost, LOST_BACKOFF_MS.length) - 1]! };
}

function judge(entry: OutboxEntry, error: ApiError): Verdict {
  const { status } = error;
  if (status === 401) return { stop: 'unauthorized' };
  if (status === 429) return { stop: 'unavailable' };
  if (status === 409) {
    const current = (error.details as { data?: unknown } | undefined)?.data;
    if (entry.kind === 'reorder') {
      const order = orderOf(entry, current);
      if (!order) return { later: true };
      // The server already holds this very order (ours, sent before without hearing back).
      return orderTag(order) === orderTag(reorderIds(entry)[1]) ? { done: true } : { order };
    }
    // Without the current row it is the same key still in flight (DESIGN §4), not a version conflict.
    return isWireRow(current, entry.entityId) ? { conflict: current } : { later: true };
  }
  if (status === 408 || status === 425 || status >= 500) return { later: true };
  // Deleting what is already gone did what it was meant to.
  if (status === 404 && entry.kind === 'delete') return { done: true };
  return { failed: true };
}

/** What an answer other than 2xx leaves in the entry. */
function held(entry: OutboxEntry, verdict: Held, error: ApiError): Partial<OutboxEntry> {
  const { message, status } = entry.kind === 'upload' ? uploadError(error) : error;
  if ('conflict' in verdict) return { status: 'conflict', current: verdict.conflict, error: { message, errors: [], status } };
  if ('order' in verdict) return { status: 'conflict', currentOrder: verdict.order, error: { message, errors: [], status } };
  // The server's data beside its message (an upload's limits: maxBytes) tells the person more.
  const data = (error.details as { data?: unknown } | undefined)?.data;
  const failed = { status: 'failed' as const, error: { message, errors: fieldErrors(error), status, ...(data === undefined ? {} : { data }) } };
  if ('failed' in verdict) return failed;
  const attempts = entry.attempts + 1;
  // After the last wait it is a refusal like any other: the person retries or discards it.
  return attempts < MAX_ATTEMPTS ? { attempts, retryAt: Date.now() + BACKOFF_MS[attempts - 1]! } : { ...failed, attempts, retryAt: undefined };
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
    if (entry?.kind === 'reorder' && entry.currentOrder) {
      // My order again, made from the server's: its children added meanwhile last, removed ones gone.
      const [field, mine] = reorderIds(entry);
      const ids = mergeOrder(mine, entry.currentOrder);
      await writeOrder(entry.resource, ids);
      await db.outbox.update(seq, {
        status: 'pending',
        body: { [field]: ids },
        baseOrder: orderTag(entry.currentOrder),
        idempotencyKey: uuidv7(),
        currentOrder: undefined,
        error: undefined,
        attempts: 0,
        lost: undefined,
        retryAt: undefined,
      });
      return;
    }
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
      attempts: 0,
      lost: undefined,
      retryAt: undefined,
      ...(asUpdate ? { kind: 'update' as const, method: 'PUT', path: entry.itemPath, body: values } : {}),
    });
  });
}

/**
 * Conflict, "take theirs": the server's version (a reorder: its order) becomes the cached one;
 * this entity's local changes are dropped.
 */
export async function takeTheirs(seq: number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.files, db.records, db.cache], async () => {
    const entry = await conflicted(seq);
    if (!entry) return;
    if (entry.kind === 'reorder') await writeOrder(entry.resource, entry.currentOrder ?? []);
    else await writeServerRow(entry.resource, entry.entityId, entry.current ?? null);
    // What followed was built on the change just dropped.
    await dropEntries((await entityEntries(entry.resource, entry.entityId)).map((later) => later.seq!));
  });
}

/** A failed entry is sent again as it is (a new Idempotency-Key), and a failed create's dependents wait for it again. */
export async function retry(seq: number): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(seq);
    if (entry?.status !== 'failed') return;
    await db.outbox.update(seq, { status: 'pending', idempotencyKey: uuidv7(), error: undefined, attempts: 0, lost: undefined, retryAt: undefined });
    if (entry.kind === 'create' || entry.kind === 'upload') await reviveDependents(entry);
  });
}

/**
 * Drops an entry; the cached copies show the server's version again. Dropping a create drops the
 * entity's later entries too: there is nothing left for them to change.
 */
export async function discard(seq: number): Promise<OutboxEntry | null> {
  return db.transaction('rw', [db.outbox, db.files], async () => {
    const entry = await db.outbox.get(seq);
    if (!entry) return null;
    const dropped = entry.kind === 'create' ? await entityEntries(entry.resource, entry.entityId) : [entry];
    await dropEntries(dropped.map((other) => other.seq!));
    // What names a record that will now never be made (a dish in a discarded category) would only be
    // refused by the server: it fails here, saying why, for the person to fix or discard.
    if (entry.kind === 'create' || entry.kind === 'upload') await failDependents(entry);
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
