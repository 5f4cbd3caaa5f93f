import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';
import type { FieldError, Pagination } from '../contract/envelope';
import { orderTag } from '../contract/order';

/**
 * The client's IndexedDB (DESIGN §6), shared by the page and the service worker: no window, no
 * React here. Rows of `records` and `cache` are the server's truth; what this device changed and
 * the server has not confirmed lives in `outbox` and is laid over them when read (db/view.ts).
 */

/** An entity exactly as the server sent it (`_id`, `version`, …); validated only when read. */
export type WireRow = Record<string, unknown> & { _id: string; version: number };

/** One list page of one resource for one query: the ids in order, the server's pagination. */
export interface CachedPage {
  /** `${resource}?${canonical query}` (view.ts cacheKey). */
  key: string;
  resource: string;
  /** The canonical query the page answers, parsed by the resource's query schema. */
  query: Record<string, string | number>;
  ids: string[];
  pagination: Pagination;
  fetchedAt: number;
}

export interface CachedRecord {
  resource: string;
  /**
   * The entry's boundKey (contract/resource.ts boundTo) it was fetched or created under; none when
   * unbound. The field keeps its stored name, so stored data needs no migration.
   */
  scope?: string;
  id: string;
  row: WireRow;
  fetchedAt: number;
  /**
   * Versions from `ownFrom` up to `row.version` were written by this device's own outbox, so an
   * edit based on any of them continues our own change instead of conflicting with someone else's.
   */
  ownFrom?: number;
  /** When our create of this entity reached the server: list pages fetched before then still show it. */
  createdLocally?: number;
}

export type OutboxStatus = 'pending' | 'conflict' | 'failed';
/**
 * `reorder`: the new order of a parent's children (db/outbox-reorder.ts enqueueReorder). `upload`:
 * one file sent as multipart, kept in `files` beside its entry (enqueueUpload). `action`: a
 * declared call beyond CRUD (contract/action.ts `queueable`), sent as it was asked (enqueueAction).
 */
export type MutationKind = 'create' | 'update' | 'delete' | 'reorder' | 'upload' | 'action';

export interface OutboxEntry {
  /** Auto-increment: the order mutations were made, and so the order they are replayed in, per entity. */
  seq?: number;
  resource: string;
  /**
   * The entry's boundKey (contract/resource.ts boundTo) the change was made under: only the lists
   * of that binding show it. The field keeps its stored name, so stored data needs no migration.
   */
  scope?: string;
  entityId: string;
  kind: MutationKind;
  method: string;
  path: string;
  /** Where the entity lives once it exists (a create's conflict is resolved by an update there). */
  itemPath: string;
  /** JSON; an upload's text fields, sent beside its file. */
  body?: Record<string, unknown>;
  idempotencyKey: string;
  /** The version the change was based on (If-Match); null for a create, a reorder and an upload. */
  baseVersion: number | null;
  /** A reorder: the tag (contract/order.ts orderTag) of the order it was made from, sent as If-Match. */
  baseOrder?: string;
  status: OutboxStatus;
  /**
   * conflict and failed: the server's message; failed: its field errors and status too. `reason`:
   * the outbox failed it itself, and the page shows that message (contract/messages.ts) in its own
   * language; `message` is its English text, since the worker that may write it has no catalog.
   */
  error?: { message: string; errors: FieldError[]; status: number; reason?: 'parentNotSaved'; data?: unknown };
  /** conflict: the server's current row (wire form), null when it sent none. */
  current?: WireRow | null;
  /** A reorder's conflict: the order the server holds now. */
  currentOrder?: string[];
  /**
   * The entity keys (`<resource>:<entityId>`, outbox.ts entityKey) whose create must reach the
   * server first: the entry waits while such a create is in the outbox, and fails when it fails.
   */
  dependsOn?: string[];
  /** How many answers in a row said "try again later" (5xx, 408, 425, a key in flight); the MAX_ATTEMPTS-th fails it. */
  attempts: number;
  /**
   * How many times in a row the entry was sent twice without an answer (outbox-verdict.ts
   * LOST_BACKOFF_MS); none since its last answer when absent. Not indexed: entries stored before it
   * read as none.
   */
  lost?: number;
  /** After such an answer, or none: not sent again before then (ms since epoch); the entity's later entries wait too. */
  retryAt?: number;
  createdAt: number;
  /** For the sync panel, translated when the change was made: "category", "Drinks". */
  label: { item: string; title: string };
  /** "Failed to update category", translated when the change was made: the worker has no catalog. */
  fallback: string;
}

/** A file an `upload` entry sends; it lives and goes with its entry. */
export interface OutboxFile {
  id?: number;
  seq: number;
  /** The multipart field it is sent in (`file`). */
  field: string;
  name: string;
  blob: Blob;
}

export type MetaRow =
  /** What the service worker needs to replay the outbox: the page writes it, the worker reads it. */
  | { key: 'session'; token: string | null; language: string; base: string }
  | { key: 'lastSync'; at: number }
  /** The user whose unsent changes the outbox still holds after their session was rejected. */
  | { key: 'unsentOwner'; userId: string };

export const DATABASE_NAME = 'sitekeeper';

interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<unknown>;
}

/**
 * Every layout the database ever had, oldest first. Never edit a shipped entry: add the next one
 * (Dexie keeps the old declarations to upgrade from them). db/database.test.ts opens every older
 * layout with data and checks it survives the upgrade to the newest.
 */
export const SCHEMA: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      cache: 'key, resource',
      records: '[resource+id], resource',
      outbox: '++seq, [resource+entityId]',
      meta: 'key',
    },
  },
  {
    // The sync release: the status panel counts entries by status and by resource, and list pages
    // find the entities created here since they were fetched. Entries queued before it get the
    // fields replay now relies on.
    version: 2,
    stores: {
      cache: 'key, resource, fetchedAt',
      records: '[resource+id], resource, createdLocally',
      outbox: '++seq, [resource+entityId], resource, status',
    },
    upgrade: (tx) =>
      tx
        .table<Partial<OutboxEntry>>('outbox')
        .toCollection()
        .modify((entry) => {
          entry.status ??= 'pending';
          entry.attempts ??= 0;
          entry.itemPath ??= entry.path;
          entry.label ??= { item: entry.resource ?? '', title: '' };
          entry.fallback ??= '';
        }),
  },
  {
    // Robust replay: a failed create finds the entries that wait for it (dependsOn), and `attempts`
    // counts only the answers that said "try again later", so counts from before start again.
    version: 3,
    stores: {
      outbox: '++seq, [resource+entityId], resource, status, *dependsOn',
    },
    upgrade: (tx) =>
      tx
        .table<OutboxEntry>('outbox')
        .toCollection()
        .modify((entry) => {
          entry.attempts = 0;
        }),
  },
  {
    // Offline uploads: an entry's files beside it, out of the entries that every replay and the
    // sync status read whole. A reorder now names the order it was made from; one queued before
    // that names none the server could hold, so it answers with its own order, a conflict the
    // person resolves.
    version: 4,
    stores: { files: '++id, seq' },
    upgrade: (tx) =>
      tx
        .table<OutboxEntry>('outbox')
        .toCollection()
        .modify((entry) => {
          if (entry.kind === 'reorder') entry.baseOrder ??= orderTag([]);
        }),
  },
];

export class SitekeeperDatabase extends Dexie {
  cache!: EntityTable<CachedPage, 'key'>;
  records!: Table<CachedRecord, [string, string]>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  files!: EntityTable<OutboxFile, 'id'>;
  meta!: Table<MetaRow, string>;

  constructor(name: string = DATABASE_NAME, upTo: number = Number.POSITIVE_INFINITY) {
    super(name);
    for (const { version, stores, upgrade } of SCHEMA) {
      if (version > upTo) break;
      const declared = this.version(version).stores(stores);
      if (upgrade) declared.upgrade(upgrade);
    }
  }
}

/** The one connection of this page or worker. */
export const db = new SitekeeperDatabase();

// Set once the database has opened on this device; the worker, without localStorage, never asks.
const OPENED_KEY = 'sitekeeper-db-opened';
type KeyValues = { getItem(key: string): string | null; setItem(key: string, value: string): void };
const storage = ((): KeyValues | null => {
  try {
    return (globalThis as { localStorage?: KeyValues }).localStorage ?? null;
  } catch {
    // Storage the browser blocks: every visit counts as a first one, which costs only the wait.
    return null;
  }
})();
const openedBefore = storage?.getItem(OPENED_KEY) === '1';
// Not db.isOpen(): that is true already while the database is being created.
let ready = false;
db.on('ready', () => {
  ready = true;
  try {
    storage?.setItem(OPENED_KEY, '1');
  } catch {
    // Full or blocked storage: the next visit waits for the database, as before this shortcut.
  }
});

/**
 * Whether the database is still being made on a device that never had it (a first visit): it
 * holds nothing to show yet, and creating it costs ~80 ms on a cold Chromium profile that the
 * first list need not wait for.
 */
export const stillCreating = () => !openedBefore && !ready;
// Opened as soon as this module loads, alongside the screen's chunks, not when the first screen
// asks: opening takes tens of milliseconds a cached list would otherwise wait for. A failure
// surfaces again at the first query.
db.open().catch(() => undefined);

let clears = 0;

/** How many times this device's copies were cleared so far: a write begun before a clear is not made after it. */
export const clearsSoFar = () => clears;

/**
 * Logout: nothing of this user may stay on the device (DESIGN §6). A session the server rejected
 * (expired while the phone was offline) is not a logout: what the user typed and did not send yet
 * stays, marked as theirs, until they sign in again — or someone else does (`claimUnsent`).
 */
export async function clearLocalData(keepUnsentOf?: string): Promise<void> {
  clears++;
  await db.transaction('rw', [db.cache, db.records, db.outbox, db.files, db.meta], async () => {
    await Promise.all([db.cache.clear(), db.records.clear(), db.meta.clear()]);
    if (keepUnsentOf && (await db.outbox.count()) > 0) await db.meta.put({ key: 'unsentOwner', userId: keepUnsentOf });
    else await Promise.all([db.outbox.clear(), db.files.clear()]);
  });
}

/**
 * At sign-in: another user's unsent changes are dropped, never sent with this user's token; and
 * the cache starts empty, so nothing a request of the last session wrote after its logout (a
 * slow list answer arriving late) is shown to this one.
 */
export async function claimUnsent(userId: string): Promise<void> {
  clears++;
  await db.transaction('rw', [db.cache, db.records, db.outbox, db.files, db.meta], async () => {
    await Promise.all([db.cache.clear(), db.records.clear()]);
    const owner = await db.meta.get('unsentOwner');
    if (owner?.key !== 'unsentOwner') return;
    if (owner.userId !== userId) await Promise.all([db.outbox.clear(), db.files.clear()]);
    await db.meta.delete('unsentOwner');
  });
}

export async function readSessionMeta(): Promise<Extract<MetaRow, { key: 'session' }> | null> {
  const row = await db.meta.get('session');
  return row?.key === 'session' ? row : null;
}

export async function writeSessionMeta(session: { token: string | null; language: string; base: string }): Promise<void> {
  await db.meta.put({ key: 'session', ...session });
}

export async function readLastSync(): Promise<number | null> {
  const row = await db.meta.get('lastSync');
  return row?.key === 'lastSync' ? row.at : null;
}
