import type { z } from 'zod/mini';
import type { FieldError, Pagination } from '../contract/envelope';
import type { EntityBaseSchema, EntityOf, QueryOf, Resource } from '../contract/resource';
import { cacheKey } from './view';

/**
 * An entity as the client holds it: `_id` becomes `id` once, in `api/` (DESIGN §4). The base fields
 * are spelled out because `Omit` over the generic `Resource`'s index signature would lose them.
 * `pending` marks a cached row whose local change (create or update) has not reached the server yet.
 */
export type Row<R extends Resource = Resource> = Omit<EntityOf<R>, '_id'> &
  Omit<z.infer<typeof EntityBaseSchema>, '_id'> & { id: string; pending?: boolean };

export interface ListPage<T> {
  items: T[];
  pagination: Pagination;
}

/** A copy from Dexie and when it was fetched (ms since epoch); its rows mark local changes not yet on the server (`pending`). */
export interface Cached<T> {
  value: T;
  fetchedAt: number;
}

/** How a mutation handed to the outbox ended, as far as the screen that made it needs to know. */
export type Outcome<R extends Resource = Resource> =
  /** The server took it; `row` is its answer (null for a delete). */
  | { status: 'done'; row: Row<R> | null; message?: string }
  /** Durable on this device, not yet on the server (offline, or no answer in time). */
  | { status: 'queued' }
  /** 409: someone else changed it; `current` is the server's version. Resolved in the sync panel or by the editor. */
  | { status: 'conflict'; current: Row<R> | null; message: string }
  /** Any other 4xx: the server's message and field errors. The entry stays in the outbox as failed. */
  | { status: 'failed'; message: string; errors: FieldError[] };

export type Mutation =
  | { kind: 'create'; values: Record<string, unknown>; id: string }
  | { kind: 'update'; id: string; values: Record<string, unknown>; baseVersion: number }
  | { kind: 'delete'; id: string; baseVersion: number };

/**
 * The data layer every resource screen uses (docs/design.md §6), injected into the list and editor
 * machines. Reads come from Dexie at once and from the network after; every write goes through
 * the outbox and is applied to the cached copies optimistically.
 */
export interface ResourceStore {
  /** The cached page for exactly this query, with pending local changes applied; null if never fetched. */
  cachedList<R extends Resource>(resource: R, query: QueryOf<R>): Promise<Cached<ListPage<Row<R>>> | null>;
  /** Fetches the page from the server and caches it (throws ApiError with the "Failed to load X" fallback). */
  fetchList<R extends Resource>(resource: R, query: QueryOf<R>, signal?: AbortSignal): Promise<ListPage<Row<R>>>;
  cachedRecord<R extends Resource>(resource: R, id: string): Promise<Cached<Row<R>> | null>;
  fetchRecord<R extends Resource>(resource: R, id: string, signal?: AbortSignal): Promise<Row<R>>;
  /**
   * Stores the mutation durably in the outbox, applies it to the cache, asks for a sync and
   * resolves with the first outcome: done / conflict / failed if the server answered within a
   * few seconds, otherwise queued.
   */
  submit<R extends Resource>(resource: R, mutation: Mutation): Promise<Outcome<R>>;
  /** "Take theirs": this device's unsent changes to the record are dropped; the server's version stays. */
  dropLocal(resource: Resource, id: string): Promise<void>;
  /**
   * A new order of an ordered entry's rows (ADR 012), made from the order `before` as the person
   * saw it: shown at once, kept in the outbox with that order's tag so it reaches the server once,
   * offline too, and a reorder made elsewhere meanwhile is a conflict; a sync is asked for.
   */
  reorder(resource: Resource, ids: readonly string[], before: readonly string[]): Promise<void>;
}

/** A call started for someone who may never take it (the screen closed at once): its failure is then nobody's to hear. */
export function unheard<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Reads started before their screen rendered (a route's `prefetch`), by key, each taken once by
 * the screen that asks for the same thing: a list's first page, a record, an entry's figures.
 */
export function earlyReads<T>() {
  const waiting = new Map<string, T>();
  return {
    put(key: string, read: T): void {
      waiting.set(key, read);
    },
    take(key: string): T | undefined {
      const read = waiting.get(key);
      waiting.delete(key);
      return read;
    },
  };
}

type Ahead = Pick<ResourceStore, 'cachedList' | 'fetchList' | 'cachedRecord' | 'fetchRecord'>;

/** What a screen shows first: the server's answer (`cachedAt` null), else this device's copy and when it was fetched. */
export interface Shown<T> {
  value: T;
  cachedAt: number | null;
}

/** A store with one screen's first read under way. */
export interface ReadAhead<T> extends ResourceStore {
  /**
   * What is in so far: the server's answer, else this device's copy. A screen whose first render
   * comes after it shows it at once, instead of a "Loading…" its machine replaces after the first paint.
   */
  shown(): Shown<T> | undefined;
}

const ignore = () => undefined;

/**
 * The store with one screen's reads already under way: a list's first page or a record, from the
 * device and from the server, started while React is still rendering (or while the screen's code
 * loads: `prefetchList`, `prefetchRecord`); the machine, which asks once it has started (after the
 * first paint), gets those same calls instead of new ones. Each is handed over once, and only for
 * what it was started for: a later load (a refresh, another query) asks again.
 */
function withReads(store: ResourceStore, key: string, keyOf: (resource: Resource, asked: unknown) => string, reads: Partial<Record<keyof Ahead, Promise<unknown>>>): ResourceStore {
  const pending = new Map(Object.entries(reads).map(([call, promise]) => [call, unheard(promise) as Promise<never>]));
  const take = (call: keyof Ahead, resource: Resource, asked: unknown) => {
    const ahead = pending.get(call);
    pending.delete(call);
    return ahead && keyOf(resource, asked) === key ? ahead : null;
  };
  return {
    ...store,
    cachedList: (resource, query) => take('cachedList', resource, query) ?? store.cachedList(resource, query),
    fetchList: (resource, query, signal) => take('fetchList', resource, query) ?? store.fetchList(resource, query, signal),
    cachedRecord: (resource, id) => take('cachedRecord', resource, id) ?? store.cachedRecord(resource, id),
    fetchRecord: (resource, id, signal) => take('fetchRecord', resource, id) ?? store.fetchRecord(resource, id, signal),
  };
}

const listKey = (resource: Resource, query: unknown) => cacheKey(resource, query as Record<string, unknown>);
const recordKey = (resource: Resource, id: unknown) => `${resource.name} ${String(id)}`;

/** The store with one list's first page being read already (from the device and the server). */
function withReadAhead<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): ReadAhead<ListPage<Row<R>>> {
  const device = store.cachedList(resource, query);
  const server = store.fetchList(resource, query);
  let shown: Shown<ListPage<Row<R>>> | undefined;
  device.then((copy) => {
    if (copy) shown ??= { value: copy.value, cachedAt: copy.fetchedAt };
  }, ignore);
  server.then((value) => void (shown = { value, cachedAt: null }), ignore);
  return { ...withReads(store, listKey(resource, query), listKey, { cachedList: device, fetchList: server }), shown: () => shown };
}

/**
 * The store with one record being read already (from the device and the server). The store alone:
 * an editor started from what was in by its first render was slower to be ready on a phone, not faster.
 */
function withRecordAhead(store: ResourceStore, resource: Resource, id: string): ResourceStore {
  return withReads(store, recordKey(resource, id), recordKey, { cachedRecord: store.cachedRecord(resource, id), fetchRecord: store.fetchRecord(resource, id) });
}

const early = earlyReads<{ store: ResourceStore; ahead: ResourceStore }>();

/** The read-ahead started before the screen on the same store, else `start`'s, started now. */
function takeEarly<S extends ResourceStore>(store: ResourceStore, key: string, start: () => S): S {
  const taken = early.take(key);
  return taken?.store === store ? (taken.ahead as S) : start();
}

/**
 * Starts a list's first read while its screen's code is still loading (the route's `prefetch`),
 * so the request is on its way before React renders; the screen takes it with `readAhead`.
 */
export function prefetchList<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): void {
  early.put(listKey(resource, query), { store, ahead: withReadAhead(store, resource, query) });
}

/** The list's read-ahead: the one started before the screen on the same store, else one started now. */
export function readAhead<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): ReadAhead<ListPage<Row<R>>> {
  return takeEarly(store, listKey(resource, query), () => withReadAhead(store, resource, query));
}

/** Starts reading a record while its editor's code is still loading (the route's `prefetch`); the editor takes it with `recordAhead`. */
export function prefetchRecord(store: ResourceStore, resource: Resource, id: string): void {
  early.put(recordKey(resource, id), { store, ahead: withRecordAhead(store, resource, id) });
}

/** The record's read-ahead: the one started before the editor on the same store, else one started now. */
export function recordAhead(store: ResourceStore, resource: Resource, id: string): ResourceStore {
  return takeEarly(store, recordKey(resource, id), () => withRecordAhead(store, resource, id));
}
