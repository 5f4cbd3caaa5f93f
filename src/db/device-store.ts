import { i18n } from '@lingui/core';
import { liveQuery } from 'dexie';
import { labelTitle, outboxEntry } from './outbox-entry';
import { whenIdle } from '../api/idle';
import { resourceApi } from '../api/resource';
import { ApiError } from '../api/request';
import type { Pagination } from '../contract/envelope';
import { messages } from '../contract/messages';
import { orderTag } from '../contract/order';
import { DEFAULT_PAGE_SIZE, parentIdOf, type QueryOf, type Resource } from '../contract/resource';
import { clearsSoFar, db, stillCreating, type CachedPage, type CachedRecord, type OutboxEntry, type WireRow } from './database';
import { enqueue, entityEntries, outboxEntries } from './outbox';
import { rememberServerRow } from './outbox-cache';
import { enqueueReorder } from './outbox-reorder';
import type { Cached, ListPage, Mutation, Outcome, ResourceStore, Row } from './resource-store';
import { requestSync, resolve as resolveSync } from './sync';
import { applyChange, applyToPage, canonicalQuery, heldPage, localChanges, pageKey, parseRow, pendingOrder, refusalText, toRow } from './view';

/** How long submit() waits for the server before answering "queued". */
const OUTCOME_WAIT_MS = 4000;
/** List pages kept per resource: every search typed is a query of its own. */
const PAGES_PER_RESOURCE = 50;

// Entries whose outcome the screen that made them is waiting for, or was told: the sync status
// announces only the others (a change that was queued and then refused or conflicted).
const claimed = new Set<number>();

/** Whether the screen that made this change hears (or heard) how it ended, so no toast is needed. */
export function outcomeClaimed(seq: number): boolean {
  return claimed.has(seq);
}

/** Server rows into `records`; a row never replaces a newer one (a slow fetch racing a replay). */
async function writeFetched({ name: resource, boundKey }: Resource, rows: readonly WireRow[], fetchedAt: number): Promise<void> {
  const previous = await db.records.bulkGet(rows.map((row): [string, string] => [resource, row._id]));
  const records = rows.flatMap((row, index): CachedRecord[] => {
    const old = previous[index];
    if (old && old.row.version > row.version) return [];
    const same = old?.row.version === row.version;
    return [{ resource, scope: boundKey, id: row._id, row, fetchedAt, ownFrom: same ? old.ownFrom : undefined, createdLocally: old?.createdLocally }];
  });
  await db.records.bulkPut(records);
}

/** Whether a cached record or an outbox entry was made under this copy's binding: a website's pages never show another's. */
const boundAlike = (resource: Resource, item: { scope?: string }) => (item.scope ?? '') === resource.boundKey;

/** The resource's changes not on the server yet, under this copy's binding only. */
async function boundEntries(resource: Resource) {
  return (await outboxEntries(resource.name)).filter((entry) => boundAlike(resource, entry));
}

async function prunePages(resource: string): Promise<void> {
  const pages = await db.cache.where('resource').equals(resource).sortBy('fetchedAt');
  const excess = pages.slice(0, Math.max(0, pages.length - PAGES_PER_RESOURCE));
  if (excess.length) await db.cache.bulkDelete(excess.map((page) => page.key));
}

/** A page of a list as the device keeps it, under its query's key. */
function listPage(resource: Resource, query: Record<string, string | number>, ids: string[], pagination: Pagination, fetchedAt: number): CachedPage {
  return { key: pageKey(resource, query), resource: resource.name, query, ids, pagination, fetchedAt };
}

/**
 * Rows kept per transaction. A page of one slice (every ordinary list) is kept before it shows, so
 * what was seen is there offline at once; a longer one (a menu's 2,000 dishes) shows first.
 */
const KEEP_SLICE = 200;

/** Pages answered and still being kept, by resource: a read of the resource from this device (but a live query's) waits for its own. */
const keeping = new Map<string, Promise<void>>();

/** Settles once every page of the resource answered so far is kept (a failed keeping included: the next fetch brings it). */
const kept = (resource: Resource) => keeping.get(resource.name);

const quietMoment = () => new Promise<void>((resolve) => void whenIdle(resolve, 1000));

/**
 * Keeps a page the server answered and its rows. Writing 2,000 rows is ~300 ms of the main thread
 * on a desktop (four times that on a phone), which a long page's rows need not wait for: each of
 * its slices waits for a quiet moment of the main thread, the first too, so the screen renders
 * first. Each slice is one transaction of its own, so a row still never replaces a newer one; the
 * page goes in last, once every row it names is there. Nothing of it is kept after a logout.
 */
function keepPage(resource: Resource, page: CachedPage, rows: readonly WireRow[]): Promise<void> {
  const era = clearsSoFar();
  const done = (kept(resource) ?? Promise.resolve())
    .then(async () => {
      for (let start = 0; start < rows.length; start += KEEP_SLICE) {
        if (rows.length > KEEP_SLICE) await quietMoment();
        await db.transaction('rw', db.records, async () => {
          if (clearsSoFar() === era) await writeFetched(resource, rows.slice(start, start + KEEP_SLICE), page.fetchedAt);
        });
      }
      await db.transaction('rw', db.cache, async () => {
        if (clearsSoFar() !== era) return;
        await db.cache.put(page);
        await prunePages(resource.name);
      });
    })
    .catch(() => undefined);
  keeping.set(resource.name, done);
  void done.then(() => keeping.get(resource.name) === done && keeping.delete(resource.name));
  return done;
}

/** The keys of the rows this device holds, of those asked: a page kept just now holds them all. */
async function heldKeys(resource: Resource, rows: readonly WireRow[]): Promise<[string, string][]> {
  const keys = rows.map((row): [string, string] => [resource.name, row._id]);
  if (rows.length <= KEEP_SLICE) return keys;
  // A long page not kept yet: its held rows by the resource's keys (one read), not 2,000 gets of rows mostly absent.
  const holds = new Set((await db.records.where('resource').equals(resource.name).primaryKeys()).map((key) => (key as [string, string])[1]));
  return keys.filter(([, id]) => holds.has(id));
}

/**
 * The server's rows as this device shows them: a newer copy it holds of one of them (a replay's
 * answer that overtook this fetch) and its changes not sent yet laid over.
 */
async function asShown<R extends Resource>(resource: R, page: CachedPage, rows: readonly WireRow[]): Promise<ListPage<Row<R>>> {
  const [held, entries] = await db.transaction('r', [db.records, db.outbox], async () => [await db.records.bulkGet(await heldKeys(resource, rows)), await boundEntries(resource)] as const);
  const newer = new Map(held.flatMap((record) => (record ? [[record.id, record.row] as const] : [])));
  const shown = rows.map((row) => {
    const copy = newer.get(row._id);
    return copy && copy.version > row.version ? parseRow(resource, copy) : row;
  });
  if (shown.some((row) => row === null)) return { items: rows.map((row) => toRow<R>(row)), pagination: page.pagination };
  return applyToPage(resource, { page, rows: shown as WireRow[], changes: localChanges(entries), createdSince: [], order: pendingOrder(resource, entries) });
}

/**
 * The page of a list never fetched whose parent this device made and has not sent (a menu made
 * offline): the server holds none of its children yet, so it is empty, and shows what was made
 * here on it. Null for any other list: what it holds is unknown.
 */
async function pageOfNewParent(resource: Resource, canonical: Record<string, string | number>): Promise<CachedPage | null> {
  const parentId = parentIdOf(resource);
  if (!parentId || !resource.parent) return null;
  const made = (await entityEntries(resource.parent.resource, parentId)).find((entry) => entry.kind === 'create');
  if (!made) return null;
  const pagination = { currentPage: 1, totalPages: 1, totalItems: 0, itemsPerPage: Number(canonical.limit ?? DEFAULT_PAGE_SIZE) };
  return listPage(resource, canonical, [], pagination, made.createdAt);
}

/** The page as this device shows it, or null when it is not cached or one of its rows is missing or broken. */
async function readPage<R extends Resource>(resource: R, query: Record<string, unknown>): Promise<Cached<ListPage<Row<R>>> | null> {
  // A first visit holds nothing yet: no need to wait for the database to be made to know it.
  if (stillCreating()) return null;
  const canonical = canonicalQuery(resource, query);
  const key = pageKey(resource, canonical);
  await kept(resource);
  const read = await db.transaction('r', [db.cache, db.records, db.outbox], async () => {
    const page = (await db.cache.get(key)) ?? (await pageOfNewParent(resource, canonical));
    if (!page) return null;
    const stored = await db.records.bulkGet(page.ids.map((id): [string, string] => [resource.name, id]));
    const entries = await boundEntries(resource);
    const createdSince = await db.records
      .where('createdLocally')
      .above(page.fetchedAt)
      .filter((record) => record.resource === resource.name && boundAlike(resource, record))
      .toArray();
    return { page, stored, entries, createdSince };
  });
  if (!read) return null;

  const rows: WireRow[] = [];
  const broken: string[] = [];
  let complete = true;
  read.stored.forEach((record, index) => {
    const row = record ? parseRow(resource, record.row) : null;
    if (row) rows.push(row);
    else {
      complete = false;
      if (record) broken.push(read.page.ids[index]!);
    }
  });
  if (!complete) {
    // Never shown broken: the rows go, the page goes, the next fetch brings both back.
    await db.transaction('rw', [db.cache, db.records], async () => {
      await db.records.bulkDelete(broken.map((id): [string, string] => [resource.name, id]));
      await db.cache.delete(key);
    });
    return null;
  }
  const value = applyToPage(resource, { page: read.page, rows, changes: localChanges(read.entries), createdSince: read.createdSince, order: pendingOrder(resource, read.entries) });
  return { value, fetchedAt: read.page.fetchedAt };
}

/**
 * Every row of the entry under its binding that this device holds, whichever query's page brought it
 * or made here and not sent (view.ts heldPage); null when it holds none, so a list waits for the
 * server. fetchedAt is the oldest row's.
 */
async function readHeld<R extends Resource>(resource: R, query: Record<string, unknown>): Promise<Cached<ListPage<Row<R>>> | null> {
  if (stillCreating()) return null;
  await kept(resource);
  const [records, entries] = await db.transaction('r', [db.records, db.outbox], () =>
    Promise.all([
      db.records
        .where('resource')
        .equals(resource.name)
        .filter((record) => boundAlike(resource, record))
        .toArray(),
      boundEntries(resource),
    ]),
  );
  const rows = records.flatMap((record) => parseRow(resource, record.row) ?? []);
  const value = heldPage<R>(resource, query, rows, entries);
  if (value.items.length === 0) return null;
  return { value, fetchedAt: Math.min(Date.now(), ...records.map((record) => record.fetchedAt)) };
}

/**
 * The store for lists that want every row of a resource, not one page of it (a form's choices,
 * the names of the records a screen refers to, a menu's categories): this device's copy is every
 * row it holds, not the page cached for the query, so what another screen fetched or made
 * offline is there too; the server's answer stands for itself when it is the whole list, and has
 * the rows held here beside it when it is only its first page.
 */
export function withHeldRows(store: ResourceStore): ResourceStore {
  return {
    ...store,
    cachedList: (resource, query) => readHeld(resource, query as Record<string, unknown>),
    async fetchList<R extends Resource>(resource: R, query: QueryOf<R>, signal?: AbortSignal) {
      const page = await store.fetchList(resource, query, signal);
      if (page.pagination.totalItems <= page.items.length) return page;
      const listed = new Set(page.items.map((row) => row.id));
      const held = (await readHeld(resource, query as Record<string, unknown>))?.value.items ?? [];
      return { ...page, items: [...page.items, ...held.filter((row) => !listed.has(row.id))] };
    },
  };
}

/**
 * The records of these ids as this device shows them (its changes laid over, those made here
 * included), under whatever binding it holds them, ids being unique; null for one it holds nothing of.
 * Reads only and awaits nothing but Dexie, so a live query may call it: it reads again as a page's
 * slices are kept, rather than waiting for them.
 */
export async function heldRecords<R extends Resource>(resource: R, ids: readonly string[]): Promise<Map<string, Row<R> | null>> {
  const keys = ids.map((id): [string, string] => [resource.name, id]);
  const [records, entries] = await Promise.all([db.records.bulkGet(keys), db.outbox.where('[resource+entityId]').anyOf(keys).toArray()]);
  const changes = localChanges(entries);
  return new Map(
    ids.map((id, index) => {
      const stored = records[index];
      const change = changes.get(id);
      const row = applyChange(resource, stored ? parseRow(resource, stored.row) : null, change);
      return [id, row ? toRow<R>(row, change !== undefined) : null];
    }),
  );
}

/** The records of these ids that wait on this device to be made by an upload (a photo taken offline): their files' names. */
export async function uploadNames(resource: Resource, ids: readonly string[]): Promise<Map<string, string>> {
  const entries = await db.outbox
    .where('[resource+entityId]')
    .anyOf(ids.map((id): [string, string] => [resource.name, id]))
    .filter((entry) => entry.kind === 'upload')
    .toArray();
  return new Map(entries.map((entry) => [entry.entityId, entry.label.title]));
}

/**
 * What each of these changes found, by its seq: the record as the server last sent it, with this
 * device's earlier changes to it laid over (a second change of a price starts from the first);
 * none when this device knows nothing of it. Reads only, so a live query may call it.
 */
export async function valuesBefore(entries: readonly OutboxEntry[]): Promise<Map<number, Record<string, unknown>>> {
  const keys = [...new Map(entries.map((entry) => [`${entry.resource}:${entry.entityId}`, [entry.resource, entry.entityId] as [string, string]])).values()];
  const records = new Map((await db.records.bulkGet(keys)).flatMap((record) => (record ? [[`${record.resource}:${record.id}`, record.row] as const] : [])));
  const found = new Map<number, Record<string, unknown>>();
  const sofar = new Map<string, Record<string, unknown>>(records);
  for (const entry of entries.toSorted((a, b) => a.seq! - b.seq!)) {
    const key = `${entry.resource}:${entry.entityId}`;
    const before = sofar.get(key);
    if (before) found.set(entry.seq!, before);
    if (entry.kind === 'create' || entry.kind === 'update') sofar.set(key, { ...before, ...entry.body });
  }
  return found;
}

/**
 * A singleton's one record (the installation's settings, a website's SEO) is asked for without an
 * id (''): the id this device holds it under, in the entry's binding; null before its first fetch.
 */
async function oneRecordId(resource: Resource): Promise<string | null> {
  if (!resource.singleton) return null;
  const record = await db.records
    .where('resource')
    .equals(resource.name)
    .filter((held) => boundAlike(resource, held))
    .first();
  return record?.id ?? null;
}

/**
 * Keeps what the server answered to a change made outside the outbox (an image upload: crud/upload.ts
 * `upload` answers the updated entity) as the record's cached copy; a newer copy stays. When the
 * answer is the next version of the copy held, that version is this device's own, like one its
 * outbox wrote: an edit still based on the copy before it continues from it instead of
 * conflicting with ourselves (outbox.ts enqueue).
 */
export async function accept(resource: Resource, entity: WireRow): Promise<void> {
  await db.transaction('rw', db.records, async () => {
    const previous = await db.records.get([resource.name, entity._id]);
    if (previous && previous.row.version >= entity.version) return;
    const ours = previous && previous.row.version === entity.version - 1 ? previous : undefined;
    await db.records.put({
      resource: resource.name,
      scope: resource.boundKey,
      id: entity._id,
      row: entity,
      fetchedAt: Date.now(),
      ownFrom: ours ? (ours.ownFrom ?? ours.row.version) : undefined,
      createdLocally: previous?.createdLocally,
    });
  });
}

/**
 * Keeps a whole list that a call beyond CRUD answered (the default allergens answer the website's
 * whole legend), in the order `query` asks for, as that query's first page, as if it had been
 * fetched: screens showing it read it on this device from now on, offline too.
 */
export async function keepList(resource: Resource, query: Record<string, unknown>, rows: readonly WireRow[]): Promise<void> {
  const canonical = canonicalQuery(resource, query);
  const limit = Number(canonical.limit ?? DEFAULT_PAGE_SIZE);
  const pagination = { currentPage: 1, totalPages: Math.max(1, Math.ceil(rows.length / limit)), totalItems: rows.length, itemsPerPage: limit };
  const page = listPage(resource, canonical, rows.slice(0, limit).map((row) => row._id), pagination, Date.now());
  await keepPage(resource, page, rows);
}

/** The row the server answered, as the screen that made the change should now show it. */
async function serverRow<R extends Resource>(resource: R, id: string): Promise<Row<R> | null> {
  const record = await db.records.get([resource.name, id]);
  const row = record ? parseRow(resource, record.row) : null;
  return row ? toRow<R>(row) : null;
}

async function awaitOutcome<R extends Resource>(resource: R, mutation: Mutation, seq: number, sync: Promise<unknown>): Promise<Outcome<R>> {
  const ended = await settled(seq, sync);
  const outcome = await outcomeOf(resource, mutation, ended);
  if (outcome.status === 'queued' || outcome.status === 'done') claimed.delete(seq);
  return outcome;
}

/** An entry the drain is done with: gone (sent), in conflict or refused. */
const over = (entry: OutboxEntry | undefined) => !entry || entry.status === 'conflict' || entry.status === 'failed';

/**
 * The entry as the drain leaves it (undefined: sent and gone), or 'waiting' when the drain ended
 * without it or OUTCOME_WAIT_MS passed. Observed, not polled: Dexie tells every context of the
 * origin about a write, so this hears of the drain in the service worker too.
 */
function settled(seq: number, sync: Promise<unknown>): Promise<OutboxEntry | undefined | 'waiting'> {
  return new Promise((done) => {
    let finished = false;
    const finish = (result: OutboxEntry | undefined | 'waiting') => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      watch.unsubscribe();
      done(result);
    };
    const timer = setTimeout(() => finish('waiting'), OUTCOME_WAIT_MS);
    const watch = liveQuery(() => db.outbox.get(seq)).subscribe({
      next: (current) => over(current) && finish(current),
      error: () => finish('waiting'),
    });
    // Read once more after the drain ends, so its last write is seen before "waiting" is said.
    const afterDrain = () =>
      void db.outbox.get(seq).then(
        (current) => finish(over(current) ? current : 'waiting'),
        () => finish('waiting'),
      );
    sync.then(afterDrain, afterDrain);
  });
}

async function outcomeOf<R extends Resource>(resource: R, mutation: Mutation, entry: OutboxEntry | undefined | 'waiting'): Promise<Outcome<R>> {
  if (entry === 'waiting') return { status: 'queued' };
  if (!entry) return { status: 'done', row: mutation.kind === 'delete' ? null : await serverRow(resource, mutation.id) };
  if (entry.status === 'conflict') {
    const current = entry.current ? parseRow(resource, entry.current) : null;
    return { status: 'conflict', current: current ? toRow<R>(current) : null, message: entry.error?.message ?? '' };
  }
  return { status: 'failed', message: refusalText(entry, i18n), errors: entry.error?.errors ?? [] };
}

/** The app's ResourceStore (DESIGN §6): Dexie first, the network after, every write through the outbox. */
export const resourceStore: ResourceStore = {
  cachedList<R extends Resource>(resource: R, query: QueryOf<R>) {
    return readPage(resource, query as Record<string, unknown>);
  },

  async fetchList<R extends Resource>(resource: R, query: QueryOf<R>, signal?: AbortSignal) {
    const { entities, pagination } = await resourceApi(resource).list(query, signal);
    const rows = entities as WireRow[];
    const page = listPage(resource, canonicalQuery(resource, query as Record<string, unknown>), rows.map((row) => row._id), pagination, Date.now());
    // A first visit: nothing on the device to lay over the rows, and no need to wait for it to be made.
    if (stillCreating()) {
      void keepPage(resource, page, rows);
      return { items: rows.map((row) => toRow<R>(row)), pagination };
    }
    if (rows.length <= KEEP_SLICE) {
      await keepPage(resource, page, rows);
      return asShown(resource, page, rows);
    }
    // A long page shows as the device held it before: read first, its transaction ahead of the
    // keeping's, which would otherwise make it read back the rows just written.
    const shown = asShown(resource, page, rows);
    void keepPage(resource, page, rows);
    return shown;
  },

  async cachedRecord<R extends Resource>(resource: R, asked: string) {
    if (stillCreating()) return null;
    await kept(resource);
    const id = asked || (await oneRecordId(resource));
    if (!id) return null;
    const [record, entries] = await db.transaction('r', [db.records, db.outbox], () =>
      Promise.all([db.records.get([resource.name, id]), entityEntries(resource.name, id)]),
    );
    const server = record ? parseRow(resource, record.row) : null;
    if (record && !server) await db.records.delete([resource.name, id]);
    const change = localChanges(entries).get(id);
    const row = applyChange(resource, server, change);
    if (!row) return null;
    return { value: toRow<R>(row, change !== undefined), fetchedAt: server && record ? record.fetchedAt : (change?.changedAt ?? Date.now()) };
  },

  async fetchRecord<R extends Resource>(resource: R, id: string, signal?: AbortSignal) {
    let entity: WireRow;
    try {
      entity = (await resourceApi(resource).get(id, signal)) as WireRow;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      // Created here and not on the server yet: the local copy is all there is.
      const local = await this.cachedRecord(resource, id);
      const createdHere = (await entityEntries(resource.name, id)).some((entry) => entry.kind === 'create');
      if (local && createdHere) return local.value;
      await rememberServerRow(resource.name, id, null);
      throw error;
    }
    await db.transaction('rw', db.records, () => writeFetched(resource, [entity], Date.now()));
    // A singleton's one record was asked for without its id: the answer names it.
    const change = localChanges(await entityEntries(resource.name, entity._id)).get(entity._id);
    const row = applyChange(resource, entity, change);
    if (!row) throw new ApiError(i18n._(messages.notFound), 404);
    return toRow<R>(row, change !== undefined);
  },

  async submit<R extends Resource>(resource: R, mutation: Mutation): Promise<Outcome<R>> {
    const before = await this.cachedRecord(resource, mutation.id);
    const title = labelTitle(resource, mutation.kind === 'delete' ? before?.value : { ...before?.value, ...mutation.values });
    const seq = await enqueue(outboxEntry(resource, mutation, title));
    // The entity's unsent create was cancelled: nothing reaches the server, nothing is left to do.
    if (seq === null) return { status: 'done', row: null };
    const sync = requestSync();
    if (!navigator.onLine) return { status: 'queued' };
    claimed.add(seq);
    return awaitOutcome(resource, mutation, seq, sync);
  },

  async dropLocal(resource: Resource, id: string): Promise<void> {
    await resolveSync.takeTheirsOf(resource.name, id);
  },

  async reorder(resource: Resource, ids: readonly string[], before: readonly string[]): Promise<void> {
    const { path, field, failed } = resource.order!;
    const label = { item: i18n._(resource.label.other), title: '' };
    await enqueueReorder({ resource: resource.name, scope: resource.boundKey, parentId: resource.boundKey, ids, base: orderTag(before), path, field, label, fallback: i18n._(failed) });
    void requestSync();
  },
};
