import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { categories } from '../contract/resources/catalogs';
import type { ListPage, Outcome, Row } from '../db/resource-store';
import { listMachine } from './list.machine';
import type { ListRequest } from './store-actors';

type Actors = Required<Parameters<typeof listMachine.provide>[0]>['actors'];

const row = (id: string): Row =>
  ({ id, name: id, description: '', version: 1, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }) as Row;
const pageOf = (...ids: string[]): ListPage<Row> => ({
  items: ids.map(row),
  pagination: { currentPage: 1, totalPages: 1, totalItems: ids.length, itemsPerPage: 10 },
});

beforeEach(() => {
  vi.useFakeTimers();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

afterEach(() => {
  vi.useRealTimers();
});

function start(fetchList: (request: ListRequest) => Promise<ListPage<Row>>, submit = () => new Promise<Outcome>(() => {})) {
  const reads: ListRequest[] = [];
  const actor = createActor(
    listMachine.provide({
      actors: {
        readList: fromPromise(async ({ input }: { input: ListRequest }) => {
          reads.push(input);
          return null;
        }),
        fetchList: fromPromise(({ input }: { input: ListRequest }) => fetchList(input)),
        submit: fromPromise(submit),
      } as unknown as Actors,
    }),
    { input: { resource: categories } },
  ).start();
  return { actor, reads };
}

describe('listMachine search', () => {
  it('asks once, 300 ms after the typing pauses, with the whole text', async () => {
    const { actor, reads } = start(async () => pageOf('a'));
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toHaveLength(1);

    for (const search of ['b', 'ba', 'bak']) {
      actor.send({ type: 'list.search', search });
      await vi.advanceTimersByTimeAsync(299);
    }
    expect(reads).toHaveLength(1);
    expect(actor.getSnapshot().context.searchText).toBe('bak');

    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toHaveLength(2);
    expect(reads[1]?.query).toMatchObject({ search: 'bak', page: 1 });
  });

  it('takes the typed text along at once when a filter or page is chosen meanwhile, without a second request later', async () => {
    const { actor, reads } = start(async () => pageOf('a'));
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'list.search', search: 'web' });
    await vi.advanceTimersByTimeAsync(100);
    actor.send({ type: 'list.page', page: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reads.at(-1)?.query).toMatchObject({ search: 'web', page: 3 });

    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(2);
  });
});

describe('listMachine delete', () => {
  it('keeps a row being deleted off the page when an answer from before the delete still lists it', async () => {
    let answer: ((page: ListPage<Row>) => void) | undefined;
    const { actor } = start(() => new Promise((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(0);
    answer?.(pageOf('a', 'b'));
    await vi.advanceTimersByTimeAsync(0);

    actor.send({ type: 'list.delete', id: 'a', baseVersion: 1 });
    actor.send({ type: 'list.refresh' });
    await vi.advanceTimersByTimeAsync(0);
    answer?.(pageOf('a', 'b'));
    await vi.advanceTimersByTimeAsync(0);

    const { page } = actor.getSnapshot().context;
    expect(page?.items.map((item) => item.id)).toEqual(['b']);
    expect(page?.pagination.totalItems).toBe(1);
  });
});

describe('listMachine with the server’s answer in hand', () => {
  it('shows it from its first snapshot and asks neither the device nor the server again', () => {
    const fetchList = vi.fn(() => new Promise<ListPage<Row>>(() => {}));
    const readList = vi.fn(async () => null);
    const actor = createActor(
      listMachine.provide({
        actors: { readList: fromPromise(readList), fetchList: fromPromise(fetchList) } as unknown as Actors,
      }),
      { input: { resource: categories, shown: { value: pageOf('a', 'b'), cachedAt: null } } },
    );
    expect(actor.getSnapshot().matches({ data: 'loaded' })).toBe(true);
    expect(actor.getSnapshot().context.page?.items.map((item) => item.id)).toEqual(['a', 'b']);
    actor.start();
    expect(fetchList).not.toHaveBeenCalled();
    expect(readList).not.toHaveBeenCalled();
    // A refresh asks the server as ever.
    actor.send({ type: 'list.refresh' });
    expect(fetchList).toHaveBeenCalledTimes(1);
  });

  it('shows this device’s copy from its first snapshot and still asks the server', () => {
    const fetchList = vi.fn(() => new Promise<ListPage<Row>>(() => {}));
    const actor = createActor(
      listMachine.provide({
        actors: { readList: fromPromise(async () => null), fetchList: fromPromise(fetchList) } as unknown as Actors,
      }),
      { input: { resource: categories, shown: { value: pageOf('a'), cachedAt: 5 } } },
    );
    expect(actor.getSnapshot().context).toMatchObject({ cachedAt: 5, page: { items: [{ id: 'a' }] } });
    actor.start();
    expect(actor.getSnapshot().matches({ data: 'loading' })).toBe(true);
    expect(fetchList).toHaveBeenCalledTimes(1);
  });
});
