import { useState, type ReactNode } from 'react';
import { vi } from 'vitest';
import { ApiError } from '../../api/request';
import { FeedbackHost } from '../../app/feedback';
import { SearchBox } from '../../components/search-box';
import type { Resource } from '../../contract/resource';
import type { Cached, ListPage, Mutation, Outcome, ResourceStore, Row } from '../../db/resource-store';
import type { ListQuery } from '../../machines/store-actors';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { FilterPanel } from '../shell/filter-panel';
import { ListControlsProvider, useRegisteredListControls } from '../shell/list-controls';
import { ResourceStoreProvider } from './store-context';

export const row = (fields: Record<string, unknown>): Row =>
  ({ version: 1, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-02T10:00:00Z', description: '', ...fields }) as unknown as Row;

/**
 * An in-memory ResourceStore: it answers lists like the server (search on the name, equality
 * filters, sorting, pages) and applies mutations; every method is a spy the test may re-program.
 */
export function fakeStore(seed: Record<string, Row[]>) {
  const tables = new Map(Object.entries(seed).map(([name, rows]) => [name, [...rows]]));
  const table = (resource: Resource) => tables.get(resource.name) ?? [];

  const page = (resource: Resource, query: ListQuery): ListPage<Row> => {
    const { page: current = 1, limit = 10, search, sortBy = 'name', sortOrder = 'asc', ids, ...filters } = query;
    const rows = table(resource)
      .filter((item) => ids === undefined || String(ids).split(',').includes(item.id))
      .filter((item) => !search || String(item.name).toLowerCase().includes(String(search).toLowerCase()))
      .filter((item) => Object.entries(filters).every(([key, value]) => item[key] === value))
      .toSorted((a, b) => String(a[sortBy]).localeCompare(String(b[sortBy])) * (sortOrder === 'desc' ? -1 : 1));
    return {
      items: rows.slice((current - 1) * limit, current * limit),
      pagination: { currentPage: current, totalPages: Math.max(1, Math.ceil(rows.length / limit)), totalItems: rows.length, itemsPerPage: limit },
    };
  };

  const apply = (resource: Resource, mutation: Mutation): Row | null => {
    const rows = table(resource);
    if (mutation.kind === 'delete') {
      tables.set(resource.name, rows.filter((item) => item.id !== mutation.id));
      return null;
    }
    const old = rows.find((item) => item.id === mutation.id);
    const saved = row({ ...old, ...mutation.values, id: mutation.id, version: (old?.version ?? 0) + 1 });
    tables.set(resource.name, [...rows.filter((item) => item.id !== mutation.id), saved]);
    return saved;
  };

  const spies = {
    cachedList: vi.fn(async (_resource: Resource, _query: ListQuery): Promise<Cached<ListPage<Row>> | null> => null),
    fetchList: vi.fn(async (resource: Resource, query: ListQuery) => page(resource, query)),
    cachedRecord: vi.fn(async (_resource: Resource, _id: string): Promise<Cached<Row> | null> => null),
    fetchRecord: vi.fn(async (resource: Resource, id: string) => {
      const found = table(resource).find((item) => item.id === id);
      if (!found) throw new ApiError('Not found', 404);
      return found;
    }),
    submit: vi.fn(async (resource: Resource, mutation: Mutation): Promise<Outcome> => ({ status: 'done', row: apply(resource, mutation) })),
    dropLocal: vi.fn(async (_resource: Resource, _id: string) => {}),
    reorder: vi.fn(async (_resource: Resource, _ids: readonly string[], _before: readonly string[]) => {}),
  };
  return { store: spies as unknown as ResourceStore, spies, rows: table };
}

/** The header's search box and filter panel, wired to the registered list controls as the real header does. */
function HeaderControls() {
  const controls = useRegisteredListControls();
  const [open, setOpen] = useState(false);
  return (
    <div>
      <SearchBox label="Search" value={controls?.search ?? ''} onChange={(value) => controls?.onSearch(value)} labels={[]} />
      <FilterPanel controls={controls} open={open} onOpenChange={setOpen} />
    </div>
  );
}

/** A resource screen inside the providers the shell gives it, signed in as `user` (an admin unless said). */
export function renderResourceScreen(ui: ReactNode, store: ResourceStore, { path = '/', user = sessionUser() } = {}) {
  localStorage.setItem('auth_token', 'token');
  localStorage.setItem('auth_user', JSON.stringify(user));
  return renderScreen(
    <ResourceStoreProvider store={store}>
      <ListControlsProvider>
        <HeaderControls />
        {ui}
      </ListControlsProvider>
      <FeedbackHost />
    </ResourceStoreProvider>,
    { path },
  );
}
