import type { FormFile } from '../api/form-data';
import { sourceText } from '../api/send';
import { messages } from '../contract/messages';
import { uuidv7 } from '../contract/uuid';
import { db, type MutationKind, type OutboxEntry } from './database';
import { ensureRoom } from './storage-room';

/**
 * The outbox (DESIGN §6), shared by the page and the service worker: every mutation is stored here
 * before anything is sent, and replayed in order per entity by whichever of the two drains first
 * (outbox-drain.ts). This file is the queue: what goes in, what waits for what, what is in it.
 * Reorders: outbox-reorder.ts; the answers to a refusal or a conflict: outbox-conflicts.ts.
 */

/** How `dependsOn` names an entity, and how the replay tells one entity's entries from another's. */
export function entityKey(resource: string, entityId: string): string {
  return `${resource}:${entityId}`;
}

export const keyOf = (entry: Pick<OutboxEntry, 'resource' | 'entityId'>) => entityKey(entry.resource, entry.entityId);

type Described = Pick<
  OutboxEntry,
  'resource' | 'entityId' | 'kind' | 'method' | 'path' | 'itemPath' | 'body' | 'baseVersion' | 'label' | 'fallback' | 'dependsOn' | 'scope'
>;

/**
 * A create, update or delete as described by db/outbox-entry.ts, with what the sync panel and the
 * replay need besides (reorders: enqueueReorder; uploads: enqueueUpload).
 */
export type NewEntry = Described & { kind: Exclude<MutationKind, 'reorder' | 'upload' | 'action'> };

export const byEntity = (resource: string, entityId: string) => db.outbox.where('[resource+entityId]').equals([resource, entityId]);

/** One entity's entries, oldest first. */
export function entityEntries(resource: string, entityId: string): Promise<OutboxEntry[]> {
  return byEntity(resource, entityId).sortBy('seq');
}

/** The entries of one resource (all of them without a name), oldest first. */
export function outboxEntries(resource?: string): Promise<OutboxEntry[]> {
  return resource ? db.outbox.where('resource').equals(resource).sortBy('seq') : db.outbox.orderBy('seq').toArray();
}

/** How many changes are not on the server yet: pending, in conflict or failed. */
export function countUnsynced(): Promise<number> {
  return db.outbox.count();
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
export const fresh = () => ({ idempotencyKey: uuidv7(), status: 'pending' as const, attempts: 0, createdAt: Date.now() });

/** Removes entries and the files they carry. */
export async function dropEntries(seqs: readonly number[]): Promise<void> {
  await db.outbox.bulkDelete([...seqs]);
  await db.files.where('seq').anyOf([...seqs]).delete();
}

/**
 * An entity's create is pending again (retried, or fixed by a new change): the entries that failed
 * only because it had failed wait for it again, and so do the ones that waited for those.
 */
export async function reviveDependents(entry: Pick<OutboxEntry, 'resource' | 'entityId'>): Promise<void> {
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
export async function failDependents(entry: Pick<OutboxEntry, 'resource' | 'entityId'>): Promise<void> {
  let keys = [keyOf(entry)];
  while (keys.length > 0) {
    const orphans = await db.outbox.where('dependsOn').anyOf(keys).distinct().filter((dependent) => dependent.status === 'pending').toArray();
    await failOrphans(orphans);
    keys = orphans.filter((dependent) => dependent.kind === 'create' || dependent.kind === 'upload').map(keyOf);
  }
}

/** Fails entries whose parent's create failed: nothing was sent, so the reason is the outbox's own. */
export async function failOrphans(orphans: readonly OutboxEntry[]): Promise<void> {
  const error = { message: sourceText(messages.parentNotSaved), errors: [], status: 424, reason: 'parentNotSaved' as const };
  await db.outbox
    .where('seq')
    .anyOf(orphans.map((entry) => entry.seq!))
    .filter((entry) => entry.status === 'pending')
    .modify({ status: 'failed', error });
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

/**
 * A declared action (contract/action.ts `queueable`) to send later: alone under its own key (its
 * Idempotency-Key, so a call that went unanswered and its replay are one request to the server),
 * never folded with another.
 */
export async function enqueueAction(action: Omit<Described, 'kind' | 'baseVersion' | 'itemPath'> & { idempotencyKey: string }): Promise<number> {
  const { idempotencyKey, ...described } = action;
  return (await db.outbox.add({ ...described, kind: 'action', itemPath: described.path, baseVersion: null, ...fresh(), idempotencyKey })) as number;
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
