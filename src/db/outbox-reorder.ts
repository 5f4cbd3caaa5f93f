import { db, type OutboxEntry } from './database';
import { entityEntries, entityKey, fresh, keyOf } from './outbox';

/**
 * A parent's children in a new order, through the outbox: the entry, the order written into the
 * cached rows and pages at once, and the order a list's changes are sent in (ADR 019).
 */

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
export function reorderIds(entry: OutboxEntry): [field: string, ids: string[]] {
  const [field, ids] = Object.entries(entry.body ?? {})[0] ?? ['', []];
  return [field, Array.isArray(ids) ? ids.map(String) : []];
}

/** The children's new order in the cached rows and list pages (enqueueReorder). */
export async function writeOrder(resource: string, ids: readonly string[]): Promise<void> {
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
export function heldByLists(entries: readonly OutboxEntry[]): Set<number> {
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
