import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/request';
import { toast } from '../../machines/feedback';
import { categories, subcategories } from '../../contract/resources/catalogs';
import { categoriesScreen, subcategoriesScreen } from '../admin/catalogs';
import { sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from './fake-store.test-support';
import { prefetchList } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { initialListQuery } from '../../machines/list.machine';
import { Route } from 'wouter';
import { notes, topics } from '../../../tests/support/scoped-resources';
import type { ResourceScreen } from './screen';
import { ResourceListPage } from './resource-list-page';

const FOOD = '0190a1b2-0000-7000-8000-0000000000c1';
const RETAIL = '0190a1b2-0000-7000-8000-0000000000c2';
const NAMES = ['Bakery', 'Bistro', 'Butcher', 'Café', 'Deli', 'Diner', 'Grill', 'Pizzeria', 'Pub', 'Snack bar', 'Tea room'];

const seed = () => ({
  categories: [row({ id: FOOD, name: 'Food' }), row({ id: RETAIL, name: 'Retail' })],
  subcategories: [
    ...NAMES.map((name, index) => row({ id: `s${index}`, name, categoryId: FOOD })),
    row({ id: 'bookshop', name: 'Bookshop', categoryId: RETAIL, pending: true }),
  ],
});

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
/** A website's notes on a CMS route, the website in the route's :websiteId. */
const notesScreen: ResourceScreen = {
  resource: notes,
  columns: [
    { key: 'title', label: msg`Title` },
    { key: 'topicId', label: msg`Topic`, format: 'lookup', source: { resource: topics } },
  ],
  fields: [{ name: 'title', label: msg`Title`, kind: 'text' }],
};

const title = msg`Subcategories`;
const PENDING = 'Not synced yet';
/** The first cell of every row, without the marker of a change not on the server yet. */
const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((tr) => within(tr).getAllByRole('cell')[0]?.textContent?.replace(PENDING, ''));
const nameHeader = () => screen.getByRole('columnheader', { name: /Name/ });
const lastQuery = (spy: ReturnType<typeof fakeStore>['spies']['fetchList']) => spy.mock.calls.filter(([resource]) => resource === subcategories).at(-1)?.[1];

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(toast, 'success').mockImplementation(() => {});
  vi.spyOn(toast, 'info').mockImplementation(() => {});
  vi.spyOn(toast, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ResourceListPage', () => {
  it('shows the first page with its figures, the category names, and moves between pages', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);

    expect(await screen.findByText('Showing 1–10 of 12')).toBeDefined();
    expect(rowNames()).toEqual(['Bakery', 'Bistro', 'Bookshop', 'Butcher', 'Café', 'Deli', 'Diner', 'Grill', 'Pizzeria', 'Pub']);
    // Created on a device and not on the server yet: marked.
    expect(within(screen.getByRole('row', { name: /Bookshop/ })).getByText(PENDING)).toBeDefined();
    expect(within(screen.getByRole('row', { name: /Bakery/ })).queryByText(PENDING)).toBeNull();
    const figures = screen.getByText('Total').closest('dl');
    expect(within(figures!).getByText('12')).toBeDefined();
    // The category column names the category, read from the categories resource.
    await waitFor(() => expect(within(screen.getAllByRole('row')[1]!).getByText('Food')).toBeDefined());

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 11–12 of 12')).toBeDefined();
    expect(lastQuery(spies.fetchList)).toMatchObject({ page: 2, limit: 10 });
    expect(rowNames()).toEqual(['Snack bar', 'Tea room']);

    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(await screen.findByText('Showing 1–10 of 12')).toBeDefined();
  });

  it('searches with the header’s search box once the typing pauses', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);
    await screen.findByText('Showing 1–10 of 12');
    const calls = spies.fetchList.mock.calls.length;

    fireEvent.change(screen.getByRole('combobox', { name: 'Search' }), { target: { value: 'b' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Search' }), { target: { value: 'bi' } });
    expect(spies.fetchList.mock.calls.length).toBe(calls);

    await waitFor(() => expect(rowNames()).toEqual(['Bistro']));
    expect(spies.fetchList.mock.calls.filter(([resource]) => resource === subcategories)).toHaveLength(2);
    expect(lastQuery(spies.fetchList)).toMatchObject({ search: 'bi', page: 1 });
  });

  it('filters by category from the header’s filter panel, and leaves a cleared filter out of the query', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);
    await screen.findByText('Showing 1–10 of 12');

    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    fireEvent.click(screen.getByRole('button', { name: 'Category All' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Retail' }));

    await waitFor(() => expect(rowNames()).toEqual(['Bookshop']));
    expect(lastQuery(spies.fetchList)).toMatchObject({ categoryId: RETAIL, page: 1 });

    fireEvent.click(screen.getByRole('button', { name: 'Clear Category' }));
    await screen.findByText('Showing 1–10 of 12');
    expect(lastQuery(spies.fetchList)).not.toHaveProperty('categoryId');
  });

  it('names a category past the first page of options, asking for it by id, and searches the options on the server', async () => {
    const many = Array.from({ length: 120 }, (_, n) => row({ id: `c${String(n).padStart(3, '0')}`, name: `Category ${String(n).padStart(3, '0')}` }));
    const data = { categories: [...many, row({ id: 'zz', name: 'Zoo' })], subcategories: [row({ id: 's', name: 'Aquarium', categoryId: 'zz' })] };
    const { store, spies } = fakeStore(data);
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);

    await waitFor(() => expect(within(screen.getByRole('row', { name: /Aquarium/ })).getByText('Zoo')).toBeDefined());
    const categoryQueries = () => spies.fetchList.mock.calls.filter(([resource]) => resource === categories).map(([, query]) => query);
    expect(categoryQueries()).toContainEqual(expect.objectContaining({ ids: 'zz' }));

    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    fireEvent.click(screen.getByRole('button', { name: 'Category All' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Category' }), { target: { value: 'Category 119' } });
    expect(await screen.findByRole('button', { name: 'Category 119' })).toBeDefined();
    expect(categoryQueries()).toContainEqual(expect.objectContaining({ search: 'Category 119' }));
  });

  it('sorts by a column when its header is clicked', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);
    await screen.findByText('Showing 1–10 of 12');
    expect(nameHeader().getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(nameHeader()).getByRole('button'));
    await waitFor(() => expect(rowNames()[0]).toBe('Tea room'));
    expect(nameHeader().getAttribute('aria-sort')).toBe('descending');
    expect(lastQuery(spies.fetchList)).toMatchObject({ sortBy: 'name', sortOrder: 'desc' });
  });

  it('asks before deleting, with the spec’s words, then removes the row and confirms', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);
    await screen.findByText('Showing 1–10 of 12');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Bakery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm deletion' });
    expect(within(dialog).getByText('Are you sure you want to delete Bakery? This action cannot be undone.')).toBeDefined();
    // Cancel first: nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(spies.submit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Bakery' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm deletion' })).getByRole('button', { name: 'Yes, Delete' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Subcategory deleted successfully'));
    expect(spies.submit).toHaveBeenCalledWith(subcategories, { kind: 'delete', id: 's0', baseVersion: 1 });
    await waitFor(() => expect(rowNames()[0]).toBe('Bistro'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('toasts the server’s own message for a delete, and brings a refused row back', async () => {
    const { store, spies } = fakeStore(seed());
    spies.submit.mockResolvedValueOnce({ status: 'failed', message: 'This subcategory is still in use and cannot be deleted.', errors: [] });
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);
    await screen.findByText('Showing 1–10 of 12');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Bakery' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, Delete' }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This subcategory is still in use and cannot be deleted.'));
    await waitFor(() => expect(rowNames()[0]).toBe('Bakery'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps this device’s copy on show with its age while the server cannot be reached', async () => {
    const { store, spies } = fakeStore(seed());
    const copy = { items: [row({ id: 's0', name: 'Bakery', categoryId: FOOD })], pagination: { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 10 } };
    spies.cachedList.mockImplementation(async (resource) => (resource === subcategories ? { value: copy, fetchedAt: Date.now() - 5 * 60_000 } : null));
    spies.fetchList.mockRejectedValue(new ApiError('Network error or server unavailable', 0));
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);

    expect(await screen.findByText('Offline — showing data as of 5 minutes ago')).toBeDefined();
    expect(rowNames()).toEqual(['Bakery']);
    expect(screen.queryByText(/Failed to load/)).toBeNull();

    // Back online: the server's answer replaces the copy.
    spies.fetchList.mockImplementation(fakeStore(seed()).spies.fetchList);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Showing 1–10 of 12')).toBeDefined();
    expect(screen.queryByText(/^Offline/)).toBeNull();
  });

  it('says it failed only when the server refused and there is no copy on this device', async () => {
    const { store, spies } = fakeStore(seed());
    spies.fetchList.mockRejectedValue(new ApiError('Something went wrong on the server. Please try again.', 500));
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load subcategories');
    expect(screen.queryByRole('table')).toBeNull();

    spies.fetchList.mockImplementation(fakeStore(seed()).spies.fetchList);
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Showing 1–10 of 12')).toBeDefined();
  });

  it('offline without a copy says so quietly: no error, and the list comes once the server answers', async () => {
    const { store, spies } = fakeStore(seed());
    spies.fetchList.mockRejectedValue(new ApiError('Network error or server unavailable', 0));
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store);

    const note = await screen.findByText('Offline — this has not been loaded on this device yet. It shows here once you are back online.');
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Failed to load/)).toBeNull();

    spies.fetchList.mockImplementation(fakeStore(seed()).spies.fetchList);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Showing 1–10 of 12')).toBeDefined();
  });

  it('offers no way to add, edit or delete to a user who may not write the catalog', async () => {
    const { store } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={title} />, store, { user: sessionUser({ type: 'user', role: null }) });
    await screen.findByText('Showing 1–10 of 12');

    expect(screen.queryByRole('button', { name: 'Add subcategory' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) / })).toBeNull();
  });

  it('offers a team member what their role’s level allows: edit without add or delete', async () => {
    const { store } = fakeStore({ notes: [row({ id: 'n1', title: 'Opening hours', topicId: null })], topics: [] });
    const editor = sessionUser({
      type: 'teammember',
      role: 'Editor',
      websiteId: SITE,
      roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { pages: 'edit' } },
    });
    renderResourceScreen(
      <Route path="/cms/:websiteId/notes">
        <ResourceListPage screen={notesScreen} title={msg`Notes`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/notes`, user: editor },
    );

    expect(await screen.findByRole('button', { name: 'Edit Opening hours' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Delete Opening hours' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add note' })).toBeNull();
  });

  it('lists one category’s subcategories: fixed in the query, shown as a figure, not offered as a filter', async () => {
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(
      <ResourceListPage screen={subcategoriesScreen} title={title} fixed={{ categoryId: RETAIL }} back={{ href: '/websites/categories', label: msg`Categories` }} />,
      store,
    );

    await waitFor(() => expect(rowNames()).toEqual(['Bookshop']));
    expect(lastQuery(spies.fetchList)).toMatchObject({ categoryId: RETAIL });
    const figures = screen.getByText('Total').closest('dl')!;
    await waitFor(() => expect(within(figures).getByText('Retail')).toBeDefined());
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByText('No filters available')).toBeDefined();
  });

  it('links a category to its subcategories', async () => {
    const { store } = fakeStore(seed());
    const { path } = renderResourceScreen(<ResourceListPage screen={categoriesScreen} title={msg`Categories`} />, store);

    fireEvent.click(await screen.findByRole('link', { name: 'Retail' }));
    expect(path()).toBe(`/websites/categories/${RETAIL}/subcategories`);
    // Asked from the first render on, before the list machine starts (withReadAhead).
    expect(store.fetchList).toHaveBeenCalledWith(categories, expect.objectContaining({ page: 1 }));
  });

  it('shows the rows its route read ahead in its first render when they are in, and does not ask again', async () => {
    const { store, spies } = fakeStore(seed());
    prefetchList(store, categories, initialListQuery(categories));
    await new Promise((resolve) => setTimeout(resolve, 0));
    renderResourceScreen(<ResourceListPage screen={categoriesScreen} title={msg`Categories`} />, store);

    // Synchronously after the first render: no "Loading…" in between, no second request.
    expect(screen.getByRole('link', { name: 'Retail' })).toBeDefined();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(spies.fetchList.mock.calls.filter(([resource]) => resource === categories)).toHaveLength(1);
  });

  it('reads the page again when queued changes reached the server or a conflict was resolved', async () => {
    const { store, spies, rows } = fakeStore(seed());
    renderResourceScreen(<ResourceListPage screen={categoriesScreen} title={msg`Categories`} />, store);
    await screen.findByRole('link', { name: 'Retail' });

    rows(categories).find((category) => category.id === RETAIL)!.name = 'Shops';
    const before = spies.fetchList.mock.calls.filter(([resource]) => resource === categories).length;
    window.dispatchEvent(new Event(SYNCED_EVENT));

    expect(await screen.findByRole('link', { name: 'Shops' })).toBeDefined();
    expect(spies.fetchList.mock.calls.filter(([resource]) => resource === categories).length).toBeGreaterThan(before);
  });

  it('lists a website’s records on a CMS route, the website read from the route’s :websiteId, and names their topics there too', async () => {
    const { store, spies } = fakeStore({ notes: [row({ id: 'n1', title: 'Opening hours', topicId: 't1' })], topics: [row({ id: 't1', name: 'News' })] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/notes">
        <ResourceListPage screen={notesScreen} title={msg`Notes`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/notes` },
    );

    await waitFor(() => expect(within(screen.getByRole('row', { name: /Opening hours/ })).getByText('News')).toBeDefined());
    const asked = spies.fetchList.mock.calls.map(([resource]) => resource);
    expect(asked.find((resource) => resource.name === 'notes')?.paths.list).toBe(`/api/test/notes/${SITE}`);
    expect(asked.find((resource) => resource.name === 'topics')?.paths.list).toBe(`/api/test/topics/${SITE}`);
    expect(asked.every((resource) => resource.boundKey === SITE)).toBe(true);
  });
});
