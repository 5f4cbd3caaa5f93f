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
function started<T>(promise: Promise<T>): Promise<never> | null {
  promise.catch(() => undefined);
  return promise as Promise<never>;
}

/**
 * The store with one list's loading already under way: a screen starts reading its first page,
 * from the device and from the server, while React is still rendering; the list machine, which
 * asks once it has started (after the first paint), gets those same calls instead of new ones.
 * Each is handed over once: a later load (a refresh, another query) asks again.
 */
export function withReadAhead<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): ResourceStore {
  const key = cacheKey(resource, query);
  let read = started(store.cachedList(resource, query));
  let fetched = started(store.fetchList(resource, query));
  const take = (asked: Resource, askedQuery: unknown, which: 'read' | 'fetched') => {
    const ahead = which === 'read' ? read : fetched;
    if (which === 'read') read = null;
    else fetched = null;
    return ahead && cacheKey(asked, askedQuery as Record<string, unknown>) === key ? ahead : null;
  };
  return {
    ...store,
    cachedList: (asked, askedQuery) => take(asked, askedQuery, 'read') ?? store.cachedList(asked, askedQuery),
    fetchList: (asked, askedQuery, signal) => take(asked, askedQuery, 'fetched') ?? store.fetchList(asked, askedQuery, signal),
  };
}

/** Read-aheads started before their screen rendered, each waiting to be taken once. */
const early = new Map<string, { store: ResourceStore; ahead: ResourceStore }>();

/**
 * Starts a list's first read while its screen's code is still loading (the route's `prefetch`),
 * so the request is on its way before React renders; the screen takes it with `readAhead`.
 */
export function prefetchList<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): void {
  early.set(cacheKey(resource, query), { store, ahead: withReadAhead(store, resource, query) });
}

/** The list's read-ahead: the one started before the screen on the same store, else one started now. */
export function readAhead<R extends Resource>(store: ResourceStore, resource: R, query: QueryOf<R>): ResourceStore {
  const key = cacheKey(resource, query);
  const taken = early.get(key);
  early.delete(key);
  return taken?.store === store ? taken.ahead : withReadAhead(store, resource, query);
}
