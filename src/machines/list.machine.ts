import { assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { toast } from './feedback';
import { DEFAULT_PAGE_SIZE, MAX_ORDERED_CHILDREN, type Resource } from '../contract/resource';
import type { Cached, ListPage, Outcome, Row, Shown } from '../db/resource-store';
import { resourceText } from '../api/resource-text';
import { reasonOf } from './reason';
import { unprovidedActors, type ListQuery } from './store-actors';
import type { ToastKind } from './toast.machine';

export interface ListContext {
  resource: Resource;
  /** The query the rows on show answer (or are being loaded for). */
  query: ListQuery;
  /** The search box's text; it joins the query once the typing pauses. */
  searchText: string;
  /** What is on show; null when there is nothing to show for this query. */
  page: ListPage<Row> | null;
  /** When the copy on show was fetched, while it is this device's copy rather than the server's answer. */
  cachedAt: number | null;
  /** Why the last load failed, in the interface language. */
  error: string | null;
  /** The row whose delete is being handed over. */
  deletingId: string | null;
}

export interface ListInput {
  resource: Resource;
  /** Fixed parts of the query (a parent's id) and any other starting values. */
  query?: Partial<ListQuery>;
  /**
   * What was read of that query before the screen rendered (a read-ahead), shown from the start:
   * the server's answer is not asked for again; this device's copy is, as ever.
   */
  shown?: Shown<ListPage<Row>>;
}

export type ListEvent =
  | { type: 'list.search'; search: string }
  /** A null or empty value removes the filter (spec §5). */
  | { type: 'list.filter'; key: string; value: string | null }
  | { type: 'list.page'; page: number }
  | { type: 'list.sort'; sortBy: string; sortOrder: 'asc' | 'desc' }
  | { type: 'list.refresh' }
  | { type: 'list.delete'; id: string; baseVersion: number }
  /** Raised by the machine itself once the search text has rested for the debounce delay. */
  | { type: 'list.debounced' }
  | DoneActorEvent<Cached<ListPage<Row>> | null, 'readList'>
  | ErrorActorEvent<unknown, 'readList'>
  | DoneActorEvent<ListPage<Row>, 'fetchList'>
  | ErrorActorEvent<unknown, 'fetchList'>
  | DoneActorEvent<Outcome, 'delete'>
  | ErrorActorEvent<unknown, 'delete'>;

/** The query with `patch` applied and the typed search joined; empty values are left out (spec §5). */
function nextQuery(context: ListContext, patch: Partial<ListQuery>): ListQuery {
  const merged: ListQuery = { ...context.query, search: context.searchText.trim(), page: 1, ...patch };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined && value !== '')) as ListQuery;
}

/** The page without a row, counted out of the total too. */
function withoutRow(page: ListPage<Row>, id: string | null): ListPage<Row> {
  const items = page.items.filter((row) => row.id !== id);
  if (items.length === page.items.length) return page;
  return { items, pagination: { ...page.pagination, totalItems: Math.max(0, page.pagination.totalItems - 1) } };
}

/** What a delete the server answered tells the user (spec §8: the server's message, else the default). */
function deleteNotice(resource: Resource, outcome: Exclude<Outcome, { status: 'queued' }>): { kind: ToastKind; message: string } {
  return outcome.status === 'done' ? { kind: 'success', message: outcome.message ?? resourceText(resource, 'deleted') } : { kind: 'error', message: outcome.message };
}

const { readList, fetchList, submit } = unprovidedActors;

/** The query a list starts with: the first page, sorted by the resource's first sort field, plus what the screen fixes. */
export function initialListQuery(resource: Resource, query: Partial<ListQuery> = {}): ListQuery {
  // Children in a set order show all at once: a reorder names the whole order (ADR 012).
  return { page: 1, limit: resource.order ? MAX_ORDERED_CHILDREN : DEFAULT_PAGE_SIZE, sortBy: resource.sort[0], sortOrder: resource.defaultOrder ?? 'asc', ...query } as ListQuery;
}

const list = setup({
  types: {} as { context: ListContext; events: ListEvent; input: ListInput },
  actors: { readList, fetchList, submit },
  delays: { searchDebounce: 300 },
  guards: {
    hasCopy: ({ event }) => event.type === 'xstate.done.actor.readList' && event.output !== null,
  },
  actions: {
    notify: (_, { kind, message }: { kind: ToastKind; message: string }) => toast[kind](message),
    // A row being deleted stays off the page, whatever an answer from before the delete still holds.
    showCopy: assign(({ context }, cached: Cached<ListPage<Row>>) => ({
      page: withoutRow(cached.value, context.deletingId),
      cachedAt: cached.fetchedAt,
      error: null,
    })),
    showFresh: assign(({ context }, page: ListPage<Row>) => ({ page: withoutRow(page, context.deletingId), cachedAt: null, error: null })),
    // The copy, with the reason the server's answer is missing.
    showStale: assign(({ context }, cached: Cached<ListPage<Row>>) => ({ page: withoutRow(cached.value, context.deletingId), cachedAt: cached.fetchedAt })),
    showNothing: assign({ page: null, cachedAt: null }),
    // The row leaves the page at once; the outcome decides whether it comes back.
    removeRow: assign(({ context }, { id }: { id: string }) => ({ deletingId: id, page: context.page && withoutRow(context.page, id) })),
  },
});

const fetchFromServer = list.spawnChild('fetchList', {
  id: 'fetchList',
  input: ({ context }) => ({ resource: context.resource, query: context.query }),
});

/**
 * One list screen of any resource (DESIGN §7): the cached copy of a query is shown at once, then
 * the server's answer; offline, the cached copy stays with its age, and only a query with no copy
 * at all fails. Search waits for the typing to pause; filters, pages and sorting load at once.
 * Deletes go to the outbox through the store, and the row leaves the page before the answer.
 */
export const listMachine = list.createMachine({
  id: 'list',
  context: ({ input }) => ({
    resource: input.resource,
    query: initialListQuery(input.resource, input.query),
    searchText: String(input.query?.search ?? ''),
    page: input.shown?.value ?? null,
    cachedAt: input.shown?.cachedAt ?? null,
    error: null,
    deletingId: null,
  }),
  type: 'parallel',
  states: {
    data: {
      initial: 'starting',
      on: {
        'list.search': { target: '.debouncing', actions: assign({ searchText: ({ event }) => event.search }) },
        'list.filter': {
          target: '.loading',
          actions: assign({ query: ({ context, event }) => nextQuery(context, { [event.key]: event.value ?? undefined }) }),
        },
        'list.page': {
          target: '.loading',
          actions: assign({ query: ({ context, event }) => nextQuery(context, { page: event.page }) }),
        },
        'list.sort': {
          target: '.loading',
          actions: assign({ query: ({ context, event }) => nextQuery(context, { sortBy: event.sortBy, sortOrder: event.sortOrder }) }),
        },
        'list.refresh': { target: '.loading' },
      },
      states: {
        /** With the server's answer in hand there is nothing to load. */
        starting: {
          always: [{ guard: ({ context }) => context.page !== null && context.cachedAt === null, target: 'loaded' }, { target: 'loading' }],
        },
        debouncing: {
          entry: list.raise({ type: 'list.debounced' }, { delay: 'searchDebounce', id: 'debounce' }),
          exit: list.cancel('debounce'),
          on: {
            'list.debounced': { target: 'loading', actions: assign({ query: ({ context }) => nextQuery(context, {}) }) },
          },
        },
        /**
         * The device's copy and the server are asked at once: the copy answers in milliseconds,
         * online or not, and the server's answer replaces it whenever it comes.
         */
        loading: {
          entry: fetchFromServer,
          exit: list.stopChild('fetchList'),
          initial: 'reading',
          states: {
            reading: {
              entry: list.spawnChild('readList', {
                id: 'readList',
                input: ({ context }) => ({ resource: context.resource, query: context.query }),
              }),
              exit: list.stopChild('readList'),
              initial: 'waiting',
              states: {
                waiting: {
                  on: {
                    'xstate.done.actor.readList': [
                      { guard: 'hasCopy', target: '#list.data.loading.refreshing', actions: { type: 'showCopy', params: ({ event }) => event.output! } },
                      { target: '#list.data.loading.fetching' },
                    ],
                    // An unreadable cache is no reason not to wait for the server.
                    'xstate.error.actor.readList': '#list.data.loading.fetching',
                    // The server was quicker: its answer is the one to show.
                    'xstate.done.actor.fetchList': { target: '#list.data.loaded', actions: { type: 'showFresh', params: ({ event }) => event.output } },
                    'xstate.error.actor.fetchList': { target: 'unanswered', actions: assign({ error: ({ event }) => reasonOf(event.error) }) },
                  },
                },
                /** The server could not answer: the device's copy, if any, is what there is. */
                unanswered: {
                  on: {
                    'xstate.done.actor.readList': [
                      { guard: 'hasCopy', target: '#list.data.cached', actions: { type: 'showStale', params: ({ event }) => event.output! } },
                      { target: '#list.data.failed', actions: 'showNothing' },
                    ],
                    'xstate.error.actor.readList': { target: '#list.data.failed', actions: 'showNothing' },
                  },
                },
              },
            },
            /** No copy on this device: the server's answer or nothing. */
            fetching: {
              on: {
                'xstate.done.actor.fetchList': { target: '#list.data.loaded', actions: { type: 'showFresh', params: ({ event }) => event.output } },
                'xstate.error.actor.fetchList': {
                  target: '#list.data.failed',
                  actions: ['showNothing', assign({ error: ({ event }) => reasonOf(event.error) })],
                },
              },
            },
            /** The copy is on show while the server is asked. */
            refreshing: {
              on: {
                'xstate.done.actor.fetchList': { target: '#list.data.loaded', actions: { type: 'showFresh', params: ({ event }) => event.output } },
                'xstate.error.actor.fetchList': { target: '#list.data.cached', actions: assign({ error: ({ event }) => reasonOf(event.error) }) },
              },
            },
          },
        },
        loaded: {},
        /** The server could not be reached or refused: this device's copy stays on show, with its age. */
        cached: {},
        /** Nothing to show for this query. */
        failed: {},
      },
    },
    deletion: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'list.delete': { target: 'deleting', actions: { type: 'removeRow', params: ({ event }) => ({ id: event.id }) } },
          },
        },
        deleting: {
          entry: list.spawnChild('submit', {
            id: 'delete',
            input: ({ context, event }) => ({
              resource: context.resource,
              mutation: {
                kind: 'delete',
                id: context.deletingId ?? '',
                baseVersion: event.type === 'list.delete' ? event.baseVersion : 0,
              },
            }),
          }),
          exit: [list.stopChild('delete'), assign({ deletingId: null })],
          on: {
            'xstate.done.actor.delete': [
              // The cached copy already lacks the row; the server hears of it later. Offline is normal:
              // the header's count is the one signal, not a toast per change (issue 18).
              { guard: ({ event }) => event.output.status === 'queued', target: 'idle' },
              // Done, or refused: read the list again, so the page fills up or the row comes back.
              {
                target: 'idle',
                actions: [
                  { type: 'notify', params: ({ context, event }) => deleteNotice(context.resource, event.output as Exclude<Outcome, { status: 'queued' }>) },
                  list.raise({ type: 'list.refresh' }),
                ],
              },
            ],
            'xstate.error.actor.delete': {
              target: 'idle',
              actions: [
                { type: 'notify', params: ({ context }) => ({ kind: 'error' as const, message: resourceText(context.resource, 'deleteFailed') }) },
                list.raise({ type: 'list.refresh' }),
              ],
            },
          },
        },
      },
    },
  },
});
