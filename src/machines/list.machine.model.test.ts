import { i18n } from '@lingui/core';
import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { ApiError } from '../api/request';
import { subcategories } from '../contract/resources/catalogs';
import type { Cached, ListPage, Outcome, Row } from '../db/resource-store';
import { listMachine, type ListEvent } from './list.machine';
import type { ListQuery } from './store-actors';
import type { ToastKind } from './toast.machine';

const DEBOUNCE_MS = 300;
const CACHED_AT = Date.parse('2026-03-01T10:00:00Z');

const row = (id: string, name: string): Row =>
  ({ id, name, description: '', categoryId: 'c1', version: 3, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }) as Row;
const pageOf = (...items: Row[]): ListPage<Row> => ({
  items,
  pagination: { currentPage: 1, totalPages: 1, totalItems: items.length, itemsPerPage: 10 },
});

const FRESH = pageOf(row('r1', 'Bakery'), row('r2', 'Bistro'));
const COPY: Cached<ListPage<Row>> = { value: pageOf(row('r1', 'Bakery (old)'), row('r2', 'Bistro')), fetchedAt: CACHED_AT };

const OUTCOMES: Outcome[] = [
  { status: 'done', row: null, message: 'Subcategory removed.' },
  { status: 'done', row: null },
  { status: 'queued' },
  { status: 'conflict', current: row('r1', 'Bakery'), message: 'Someone else changed this subcategory in the meantime.' },
  { status: 'failed', message: 'This subcategory is still in use and cannot be deleted.', errors: [] },
];

const EVENTS = [
  { type: 'list.search', search: 'bak' },
  { type: 'list.search', search: '  ' },
  { type: 'list.filter', key: 'categoryId', value: 'c1' },
  { type: 'list.filter', key: 'categoryId', value: null },
  { type: 'list.filter', key: 'categoryId', value: '' },
  { type: 'list.page', page: 2 },
  { type: 'list.sort', sortBy: 'updatedAt', sortOrder: 'desc' },
  { type: 'list.delete', id: 'r1', baseVersion: 3 },
  { type: 'xstate.done.actor.readList', output: null, actorId: 'readList' },
  { type: 'xstate.done.actor.readList', output: COPY, actorId: 'readList' },
  { type: 'xstate.error.actor.readList', error: new Error('IndexedDB is closed'), actorId: 'readList' },
  { type: 'xstate.done.actor.fetchList', output: FRESH, actorId: 'fetchList' },
  { type: 'xstate.error.actor.fetchList', error: new ApiError('Network error or server unavailable', 0), actorId: 'fetchList' },
  ...OUTCOMES.map((output) => ({ type: 'xstate.done.actor.delete', output, actorId: 'delete' })),
  { type: 'xstate.error.actor.delete', error: new Error('IndexedDB is closed'), actorId: 'delete' },
] as ListEvent[];

type Snapshot = SnapshotFrom<typeof listMachine>;
type Actors = Required<Parameters<typeof listMachine.provide>[0]>['actors'];

const INPUT = { resource: subcategories };

// Path generation resolves the toasts' parameters, which are translated messages.
i18n.loadAndActivate({ locale: 'en', messages: {} });

/** What a state shows: which rows, whether they are this device's copy, whether a load failed. */
const shown = (state: Snapshot) => ({
  value: state.value,
  rows: state.context.page?.items.map((item) => item.id) ?? null,
  cached: state.context.cachedAt !== null,
  failed: state.context.error !== null,
});

// What is on show plus the transition that led here, so every transition is a path; the query
// stays out of the state space and is checked step by step against the one before.
const model = createTestModel(listMachine, {
  input: INPUT,
  events: EVENTS,
  serializeState: (state, event, previous) =>
    JSON.stringify({
      ...shown(state),
      via: event && previous && JSON.stringify(previous.value) !== JSON.stringify(state.value) ? [event.type, previous.value] : null,
    }),
});

function detail(event: Record<string, unknown>): string {
  if (event.type === 'list.filter') return `${String(event.key)}=${String(event.value)}`;
  if ('output' in event) {
    const output = event.output as Record<string, unknown> | null;
    return output === null ? 'nothing' : 'status' in output ? String(output.status) : 'value' in output ? 'copy' : 'page';
  }
  if ('error' in event) return (event.error as Error).message;
  const { type: _, ...rest } = event;
  return Object.values(rest).map(String).join(' ');
}

/** "done.actor.readList copy → list.filter categoryId=c1 → …" */
function describePath(steps: readonly { event: EventObject }[]): string {
  const names = steps.slice(1).map(({ event }) => `${event.type.replace('xstate.', '')} ${detail(event as never)}`.trim());
  return names.join(' → ') || 'start';
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('listMachine', () => {
  it.each(model.getShortestPaths().map((path) => [describePath(path.steps), path] as const))('%s', async (_name, path) => {
    const pending = new Map<string, { input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
    const started: string[] = [];
    const fake = (src: string) =>
      fromPromise<unknown, unknown>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            started.push(src);
            pending.set(src, { input, resolve, reject });
          }),
      );
    const notified: { kind: ToastKind; message: string }[] = [];
    const actor = createActor(
      listMachine.provide({
        actors: { readList: fake('readList'), fetchList: fake('fetchList'), submit: fake('submit') } as unknown as Actors,
        actions: { notify: (_, notice) => notified.push(notice) },
      }),
      { input: INPUT },
    ).start();
    const context = () => actor.getSnapshot().context;
    let before: ListQuery = context().query;
    const send = async ({ event }: { event: EventObject }) => {
      before = context().query;
      actor.send(event as ListEvent);
      await vi.advanceTimersByTimeAsync(0);
    };
    const settle = async ({ event }: { event: EventObject }) => {
      const settled = event as Extract<ListEvent, { type: `xstate.${string}` }>;
      const [, outcome, , id = ''] = settled.type.split('.');
      const call = pending.get(id === 'delete' ? 'submit' : id);
      if ('output' in settled) call?.resolve(settled.output);
      else if (outcome === 'error') call?.reject(settled.error);
      await vi.advanceTimersByTimeAsync(0);
    };
    const inputOf = (src: string) => pending.get(src)?.input;
    // A delete runs from the click to its outcome, whatever the list does meanwhile.
    let deleteRunning = false;

    await path.test({
      events: {
        'list.search': async (step) => {
          const count = started.length;
          await send(step);
          // Nothing is asked while the user types.
          expect(started.length).toBe(count);
          expect(context().query).toEqual(before);
        },
        'list.debounced': async () => {
          await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
          expect(actor.getSnapshot().matches({ data: 'debouncing' })).toBe(true);
          await vi.advanceTimersByTimeAsync(1);
          const search = context().searchText.trim();
          expect(context().query.search).toBe(search || undefined);
          expect('search' in context().query).toBe(search !== '');
          expect(context().query.page).toBe(1);
        },
        'list.filter': async (step) => {
          const { value } = step.event as Extract<ListEvent, { type: 'list.filter' }>;
          await send(step);
          // Spec §5: an empty filter is left out of the query, not sent empty.
          if (value) expect(context().query.categoryId).toBe(value);
          else expect('categoryId' in context().query).toBe(false);
          expect(context().query.page).toBe(1);
        },
        'list.page': async (step) => {
          await send(step);
          // The text typed so far joins the query at once, as with every change but typing.
          const { search: _applied, ...rest } = before;
          const typed = context().searchText.trim();
          expect(context().query).toEqual({ ...rest, page: 2, ...(typed ? { search: typed } : {}) });
        },
        'list.sort': async (step) => {
          await send(step);
          expect(context().query).toMatchObject({ sortBy: 'updatedAt', sortOrder: 'desc', page: 1 });
        },
        'list.refresh': send,
        'list.delete': async (step) => {
          deleteRunning = true;
          await send(step);
          // The row leaves the page at once.
          expect(context().page?.items.some((item) => item.id === 'r1') ?? false).toBe(false);
          expect(inputOf('submit')).toEqual({ resource: subcategories, mutation: { kind: 'delete', id: 'r1', baseVersion: 3 } });
        },
        'xstate.done.actor.readList': settle,
        'xstate.error.actor.readList': settle,
        'xstate.done.actor.fetchList': settle,
        'xstate.error.actor.fetchList': settle,
        'xstate.done.actor.delete': async (step) => {
          deleteRunning = false;
          const count = started.length;
          const notifiedBefore = notified.length;
          await settle(step);
          const outcome = (step.event as Extract<ListEvent, { type: 'xstate.done.actor.delete' }>).output;
          const expected = {
            done: { kind: 'success', message: outcome.status === 'done' ? (outcome.message ?? 'Subcategory deleted successfully') : '' },
            conflict: { kind: 'error', message: 'Someone else changed this subcategory in the meantime.' },
            failed: { kind: 'error', message: 'This subcategory is still in use and cannot be deleted.' },
          };
          // Offline is normal: a queued delete says nothing, the header's count does.
          if (outcome.status === 'queued') expect(notified.length).toBe(notifiedBefore);
          else expect(notified.at(-1)).toEqual(expected[outcome.status]);
          // Anything but a queued delete reads the list again, from the device and the server at once:
          // the page fills up, or the row comes back.
          expect(started.slice(count)).toEqual(outcome.status === 'queued' ? [] : ['fetchList', 'readList']);
        },
        'xstate.error.actor.delete': async (step) => {
          deleteRunning = false;
          await settle(step);
          expect(notified.at(-1)).toEqual({ kind: 'error', message: 'Failed to delete subcategory' });
          expect(actor.getSnapshot().matches({ data: { loading: 'reading' } })).toBe(true);
        },
      },
      states: {
        '*': (state: Snapshot) => {
          const snapshot = actor.getSnapshot();
          expect(shown(snapshot)).toEqual(shown(state));
          const { query, page, cachedAt, error } = snapshot.context;

          if (snapshot.matches({ data: { loading: 'reading' } })) expect(inputOf('readList')).toEqual({ resource: subcategories, query });
          // The server is asked from the start, while the device's copy is still being read.
          if (snapshot.matches({ data: 'loading' })) expect(inputOf('fetchList')).toEqual({ resource: subcategories, query });
          if (snapshot.matches({ data: { loading: 'refreshing' } })) expect(cachedAt).toBe(CACHED_AT);
          if (snapshot.matches({ data: 'loaded' })) {
            expect(cachedAt).toBeNull();
            expect(error).toBeNull();
          }
          if (snapshot.matches({ data: 'cached' })) {
            // Offline: the copy stays, with its age and the reason.
            expect(page?.items.length).toBeGreaterThan(0);
            expect(cachedAt).toBe(CACHED_AT);
            expect(error).toBe('Network error or server unavailable');
          }
          if (snapshot.matches({ data: 'failed' })) {
            expect(page).toBeNull();
            expect(error).toBe('Network error or server unavailable');
          }
          expect(snapshot.matches({ deletion: 'deleting' })).toBe(deleteRunning);
          expect(snapshot.context.deletingId).toBe(deleteRunning ? 'r1' : null);
        },
      },
    });
    actor.stop();
  });
});
