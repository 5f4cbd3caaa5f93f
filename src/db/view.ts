import type { I18n } from '@lingui/core';
import type { Pagination } from '../contract/envelope';
import { messages } from '../contract/messages';
import { DEFAULT_PAGE_SIZE, parentIdOf, type Resource } from '../contract/resource';
import type { CachedPage, CachedRecord, OutboxEntry, WireRow } from './database';
import type { ListPage, Row } from './resource-store';

/**
 * What this device shows: the server's rows as cached, with the changes it has not confirmed laid
 * over them (DESIGN §6). Pure functions over rows read from Dexie, used by the page only.
 */

type Query = Record<string, unknown>;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The query as the server reads it (defaults applied, empty values dropped), keys sorted. */
export function canonicalQuery(resource: Resource, query: Query): Record<string, string | number> {
  const parsed = resource.query.safeParse(query);
  const source: Query = parsed.success ? parsed.data : query;
  const entries = Object.entries(source)
    // A list of ids (`ids`) is keyed as the comma list it is sent as.
    .map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value] as const)
    .filter(([, value]) => !isEmpty(value) && (typeof value === 'string' || typeof value === 'number'))
    .toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries) as Record<string, string | number>;
}

/** One page's key: the entry, what it is bound to (a website's pages are its own), the canonical query. */
export function pageKey(resource: Resource, canonical: Record<string, string | number>): string {
  const bound = resource.boundKey ? `@${resource.boundKey}` : '';
  return `${resource.name}${bound}?${new URLSearchParams(Object.entries(canonical).map(([k, v]) => [k, String(v)]))}`;
}

/** The key of the page a query asks for, as the list machine and the read-ahead know it. */
export const cacheKey = (resource: Resource, query: Query): string => pageKey(resource, canonicalQuery(resource, query));

/**
 * `_id` becomes `id` once (DESIGN §4); every other field stays as the server named it. `pending`
 * marks a row showing a local change the server has not confirmed.
 */
export function toRow<R extends Resource>(entity: Record<string, unknown> & { _id: string }, pending = false): Row<R> {
  const { _id, ...rest } = entity;
  return (pending ? { ...rest, id: _id, pending } : { ...rest, id: _id }) as unknown as Row<R>;
}

/** A cached row that no longer parses (an older app wrote it, or it is damaged) is not shown. */
export function parseRow(resource: Resource, row: unknown): WireRow | null {
  const parsed = resource.entity.safeParse(row);
  return parsed.success ? (parsed.data as WireRow) : null;
}

/** Whether a row belongs in a list with this query: its equality filters and its search text. */
export function matchesQuery(resource: Resource, row: Record<string, unknown>, query: Query): boolean {
  for (const key of Object.keys(resource.filters)) {
    const wanted = query[key];
    if (!isEmpty(wanted) && String(row[key]) !== String(wanted)) return false;
  }
  const search = typeof query.search === 'string' ? query.search.trim().toLowerCase() : '';
  if (!search) return true;
  return resource.search.some((field) => {
    const value = row[field];
    return typeof value === 'string' && value.toLowerCase().includes(search);
  });
}

/** The net effect of one entity's unconfirmed changes, in the order they were made. */
export interface LocalChange {
  entityId: string;
  /** This device created it: without a server row it is built from the create's values. */
  created: boolean;
  deleted: boolean;
  values: Record<string, unknown>;
  /** When the last change was made (the row's updatedAt until the server answers). */
  changedAt: number;
}

/**
 * Folds each entity's entries (sorted by seq). A failed entry and everything after it are not
 * shown: the server refused it, and what follows was built on it.
 */
export function localChanges(entries: readonly OutboxEntry[]): Map<string, LocalChange> {
  const changes = new Map<string, LocalChange>();
  const stopped = new Set<string>();
  for (const entry of entries.toSorted((a, b) => (a.seq ?? 0) - (b.seq ?? 0))) {
    // A new order of children changes no row's values (pendingOrder reads it); nor does an action, whose effect only the server knows.
    if (entry.kind === 'reorder' || entry.kind === 'action' || stopped.has(entry.entityId)) continue;
    if (entry.status === 'failed') {
      stopped.add(entry.entityId);
      continue;
    }
    const change = changes.get(entry.entityId) ?? { entityId: entry.entityId, created: false, deleted: false, values: {}, changedAt: 0 };
    const { _id: _ignored, ...values } = entry.body ?? {};
    if (entry.kind === 'create') change.created = true;
    if (entry.kind === 'delete') change.deleted = true;
    else change.values = { ...change.values, ...values };
    change.changedAt = entry.createdAt;
    changes.set(entry.entityId, change);
  }
  return changes;
}

/**
 * The order of an ordered entry's children this device made and the server has not taken yet
 * (db/outbox-reorder.ts enqueueReorder: one entry per parent, kept under `order:<boundKey>`), or
 * none.
 */
export function pendingOrder(resource: Resource, entries: readonly OutboxEntry[]): string[] | undefined {
  if (!resource.order) return undefined;
  const entry = entries.findLast((held) => held.kind === 'reorder' && held.entityId === `order:${resource.boundKey}` && held.status !== 'failed');
  const ids = entry?.body?.[resource.order.field];
  return Array.isArray(ids) ? ids.map(String) : undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One entity as this device shows it, or null when it is (locally) gone. A change that would make
 * the row invalid is not applied: the server row is shown instead, never a broken one.
 */
export function applyChange(resource: Resource, server: WireRow | null, change: LocalChange | undefined): WireRow | null {
  if (!change) return server;
  if (change.deleted) return null;
  if (server) return parseRow(resource, { ...server, ...change.values, updatedAt: iso(change.changedAt) }) ?? server;
  if (!change.created) return null;
  // Version 1 is what the server gives a new entity; an edit made before the create syncs is based on it.
  const at = iso(change.changedAt);
  return parseRow(resource, { ...madeHere(resource, change.entityId), ...change.values, _id: change.entityId, version: 1, createdAt: at, updatedAt: at });
}

/**
 * What the server fills in on a create that this device knows already, so a record made here
 * shows before it is sent: the `id` some entries repeat (spec §3), the parent its path names
 * (a dish's menu), and for ordered children a place after all the others.
 */
function madeHere(resource: Resource, entityId: string): Record<string, unknown> {
  const parent = parentIdOf(resource);
  return {
    id: entityId,
    ...(resource.parent && parent ? { [resource.parent.param]: parent } : {}),
    ...(resource.order ? { position: Number.MAX_SAFE_INTEGER } : {}),
  };
}

function paginate(pagination: Pagination, totalItems: number): Pagination {
  const perPage = Math.max(1, pagination.itemsPerPage);
  return { ...pagination, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / perPage)) };
}

export interface PageInput {
  page: CachedPage;
  /** The page's rows in order, parsed. */
  rows: WireRow[];
  changes: Map<string, LocalChange>;
  /** Server rows of this resource that our own creates produced since the page was fetched. */
  createdSince: readonly CachedRecord[];
  /** Ordered children: the order made here and not on the server yet (pendingOrder). */
  order?: readonly string[];
}

/**
 * A cached page as this device shows it: changed rows changed, deleted ones gone, and on the first
 * page of every query they match, the entities created here that the page does not know yet:
 * newest first, or, for children in the order a person sets, last in the order they were made, as
 * the server will place them; then in the order made here and not sent yet, if there is one.
 */
export function applyToPage<R extends Resource>(resource: R, { page, rows, changes, createdSince, order }: PageInput): ListPage<Row<R>> {
  const { sortBy = 'position', sortOrder = 'asc' } = page.query;
  const ordered = resource.order !== undefined && sortBy === 'position' && sortOrder === 'asc';
  let total = page.pagination.totalItems;
  const shown = new Set(page.ids);
  const items: Row<R>[] = [];
  for (const server of rows) {
    const change = changes.get(server._id);
    const row = applyChange(resource, server, change);
    if (row) items.push(toRow<R>(row, change !== undefined));
    else total -= 1;
  }

  const firstPage = Number(page.query.page ?? 1) === 1;
  const added: Row<R>[] = [];
  if (firstPage) {
    const candidates: { row: WireRow | null; at: number }[] = [
      ...createdSince.filter((record) => !shown.has(record.id)).map((record) => ({ row: parseRow(resource, record.row), at: record.createdLocally ?? 0 })),
      ...[...changes.values()]
        .filter((change) => change.created && !shown.has(change.entityId))
        .map((change) => ({ row: applyChange(resource, null, change), at: change.changedAt })),
    ];
    // Ordered children by when they were made: their ids are this device's UUIDv7s, in the order of
    // their creates (a later edit moves a row's change time, not its place).
    const madeOrder = (a: (typeof candidates)[number], b: (typeof candidates)[number]) => String(a.row?._id ?? '').localeCompare(String(b.row?._id ?? ''));
    for (const { row } of candidates.toSorted((a, b) => (ordered ? madeOrder(a, b) : b.at - a.at))) {
      if (!row || shown.has(row._id) || !matchesQuery(resource, row, page.query)) continue;
      const change = changes.get(row._id);
      const view = change && !change.created ? applyChange(resource, row, change) : row;
      if (!view) continue;
      shown.add(row._id);
      added.push(toRow<R>(view, change !== undefined));
      total += 1;
    }
  }
  const pagination = paginate(page.pagination, Math.max(0, total));
  if (!ordered) return { items: [...added, ...items], pagination };
  if (!order) return { items: [...items, ...added], pagination };
  const rank = new Map(order.map((id, index) => [id, index]));
  // Rows the order does not name (made after it) stay after those it does, as they were.
  const rankOf = (row: Row<R>) => rank.get(row.id) ?? rank.size;
  return { items: [...items, ...added].toSorted((a, b) => rankOf(a) - rankOf(b)), pagination };
}

/** Rows in a query's order: numbers by value, text as people sort it, rows without a value last. */
function byField(field: string, descending: boolean) {
  return (a: Record<string, unknown>, b: Record<string, unknown>) => {
    const [x, y] = [a[field], b[field]];
    if (isEmpty(x) || isEmpty(y)) return Number(isEmpty(x)) - Number(isEmpty(y));
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: 'base' });
    return descending ? -order : order;
  };
}

/**
 * Every row of an entry this device holds, as one page whatever pages were cached for which
 * queries: the server's rows it keeps that match the query (its filters, its search, the ids it
 * asks for), with the changes not on the server yet laid over them and the rows made here among
 * them, in the query's order (the entry's first sort field unless it names one). What a list of
 * choices offers while the server cannot be asked.
 */
export function heldPage<R extends Resource>(resource: R, query: Query, rows: readonly WireRow[], entries: readonly OutboxEntry[]): ListPage<Row<R>> {
  const canonical = canonicalQuery(resource, { ...query, page: 1 });
  const ids = typeof canonical.ids === 'string' ? new Set(canonical.ids.split(',')) : null;
  const asked = (row: WireRow) => ids === null || ids.has(row._id);
  const sortBy = String(canonical.sortBy ?? resource.sort[0]);
  const sort = byField(sortBy, canonical.sortOrder === 'desc');
  const matching = rows.filter((row) => asked(row) && matchesQuery(resource, row, canonical)).toSorted(sort);
  const pagination = { currentPage: 1, totalPages: 1, totalItems: matching.length, itemsPerPage: Number(canonical.limit ?? DEFAULT_PAGE_SIZE) };
  const page: CachedPage = { key: pageKey(resource, canonical), resource: resource.name, query: canonical, ids: matching.map((row) => row._id), pagination, fetchedAt: 0 };
  const shown = applyToPage(resource, { page, rows: matching, changes: localChanges(entries), createdSince: [], order: pendingOrder(resource, entries) });
  const items = shown.items.filter((row) => ids === null || ids.has(row.id));
  // Children in their set order are placed as applyToPage places them (made here last, a pending order applied).
  const placed = resource.order !== undefined && sortBy === 'position' ? items : items.toSorted(sort);
  return { items: placed, pagination: { ...pagination, totalItems: placed.length } };
}

/**
 * Why a change was refused: the server's message, or the outbox's own reason in the interface
 * language (the worker that failed it stored the English text).
 */
export function refusalText(entry: Pick<OutboxEntry, 'error' | 'fallback'>, i18n: I18n): string {
  const reason = entry.error?.reason;
  return reason ? i18n._(messages[reason]) : entry.error?.message || entry.fallback;
}
