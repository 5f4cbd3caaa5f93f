import { orderTag } from '../contract/order';
import { uuidv7 } from '../contract/uuid';
import { db, type OutboxEntry } from './database';
import { dropEntries, entityEntries, failDependents, reviveDependents } from './outbox';
import { writeServerRow } from './outbox-cache';
import { reorderIds, writeOrder } from './outbox-reorder';

/**
 * What the person answers to an entry the server found in conflict or refused (the sync panel, the
 * editor): keep mine, take theirs, retry, discard.
 */

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
