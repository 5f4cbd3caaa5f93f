import { orderTag } from '../contract/order';
import { db, type OutboxEntry, type WireRow } from './database';
import { byEntity, dropEntries } from './outbox';
import { reorderIds } from './outbox-reorder';

/**
 * What the server answered for an entity, written into the cached records and list pages: after a
 * replayed entry's 2xx (settle), or outside a replay (rememberServerRow).
 */

/** A row as the server sends it (of this id, when one is given). */
export function isWireRow(value: unknown, id?: string): value is WireRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const row = value as Record<string, unknown>;
  return typeof row._id === 'string' && typeof row.version === 'number' && (id === undefined || row._id === id);
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
export async function writeServerRow(
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
    // The binding (boundKey) a list page must be of to show it as created here (device-store.ts readPage).
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
export async function settle(entry: OutboxEntry, data: unknown): Promise<OutboxEntry[]> {
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
    } else if (entry.kind === 'action') {
      // Its answer is no row of one entry: the lists it changed are read again when next shown.
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
