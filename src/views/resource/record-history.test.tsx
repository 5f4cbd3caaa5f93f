import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { activity } from '../../contract/resources/activity';
import { gastroItems } from '../../contract/resources/gastro';
import { toast } from '../../machines/feedback';
import { itemsScreen } from '../cms/gastro';
import { fakeStore, renderResourceScreen, row } from './fake-store.test-support';
import { preloadFieldKinds } from './field-kinds';
import { ResourceFormPage } from './resource-form';

const uuid = (n: string) => `0190a1b2-0000-7000-8000-00000000${n}`;
const [WEBSITE, MENU, MAINS, DESSERTS, SOUP] = [uuid('a001'), uuid('b001'), uuid('c001'), uuid('c002'), uuid('d001')];
const dish = { id: SOUP, menuId: MENU, position: 0, name: 'Soup', description: '', price: 990, currency: 'EUR', categoryId: DESSERTS, allergenIds: [], available: true, mediaId: null, version: 3 };

/** The activity's rows of the soup, as the server answers them: each change's fields, the record after it. */
const change = (n: string, at: string, actorName: string, changes: object[], values: object, action = 'update') =>
  row({ id: uuid(`e00${n}`), action, actorId: null, actorKind: 'user', actorName, device: 'Chrome · Android', recordId: SOUP, entry: 'gastroItems', module: 'gastro', title: 'Soup', changes, values, createdAt: at, updatedAt: at });

const HISTORY = [
  change('3', '2026-11-20T16:05:00Z', 'Paula Partner', [{ field: 'price', before: 950, after: 990 }, { field: 'categoryId', before: MAINS, after: DESSERTS }], { ...dish }),
  change('2', '2026-11-20T16:00:00Z', 'Anna Owner', [{ field: 'price', before: 890, after: 950 }], { ...dish, price: 950, categoryId: MAINS }),
  change('1', '2026-11-19T09:00:00Z', 'Anna Owner', [], { ...dish, price: 890, categoryId: MAINS }, 'create'),
];

/** A history item's changes, a line per field. */
const lines = (item: HTMLElement) => [...item.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The soup's form with these changes in its website's activity, its history opened. */
async function openHistory(changes = HISTORY, firstActor = 'Paula Partner') {
  await preloadFieldKinds(itemsScreen.fields);
  const { store, spies } = fakeStore({
    gastroItems: [row(dish)],
    gastroCategories: [row({ id: MAINS, menuId: MENU, position: 0, name: 'Mains' }), row({ id: DESSERTS, menuId: MENU, position: 1, name: 'Desserts' })],
    gastroAllergens: [],
    media: [],
    activity: changes,
  });
  renderResourceScreen(
    <Route path="/cms/:websiteId/gastromenu/:menuId/items/edit/:itemId">
      <ResourceFormPage screen={itemsScreen} title={msg`Edit dish`} id={SOUP} />
    </Route>,
    store,
    { path: `/cms/${WEBSITE}/gastromenu/${MENU}/items/edit/${SOUP}` },
  );
  await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Soup'));
  // Closed until asked for: nothing is read before.
  expect(spies.fetchList.mock.calls.some(([resource]) => resource.name === 'activity')).toBe(false);
  fireEvent.click(screen.getByText('History'));
  const list = await screen.findByRole('list');
  await within(list).findByText(firstActor);
  return { store, spies, list };
}

describe('a record’s history under its form', () => {
  it('reads the website’s activity of this record, newest first, each change in words: money in euros, a category by its name', async () => {
    const { spies, list } = await openHistory();
    const [resource, query] = spies.fetchList.mock.calls.find(([asked]) => asked.name === 'activity')!;
    expect(resource.boundKey).toBe(WEBSITE);
    expect(resource.paths.list).toBe(activity.paths.list!.replace(':websiteId', WEBSITE));
    expect(query).toMatchObject({ recordId: SOUP, page: 1 });

    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual(['Paula Partner', 'Anna Owner', 'Anna Owner']);
    await waitFor(() => expect(JSON.stringify(lines(items[0]!))).toBe(JSON.stringify(['Price: €9.50 → €9.90', 'Category: Mains → Desserts'])));
    expect(lines(items[1]!)).toEqual(['Price: €8.90 → €9.50']);
    expect(within(items[0]!).getByText(/Chrome · Android/)).toBeDefined();
    // The newest is how the dish is now: nothing to restore there.
    expect(within(items[0]!).queryByRole('button', { name: 'Restore this version' })).toBeNull();
    expect(list.textContent).not.toContain(SOUP);
  });

  it('restores an older version through the form: asked first, then saved as an update from the version on show', async () => {
    const { spies, list } = await openHistory();
    const older = within(list).getAllByRole('listitem')[1]!;
    fireEvent.click(within(older).getByRole('button', { name: 'Restore this version' }));
    const question = await screen.findByRole('dialog', { name: 'Restore this version?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Restore' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalledOnce());
    expect(spies.submit).toHaveBeenCalledWith(expect.objectContaining({ name: gastroItems.name }), {
      kind: 'update',
      id: SOUP,
      baseVersion: 3,
      values: { price: 950, categoryId: MAINS },
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Dish updated successfully'));
  });

  it('sends nothing when the question is answered no', async () => {
    const { spies, list } = await openHistory();
    fireEvent.click(within(within(list).getAllByRole('listitem')[2]!).getByRole('button', { name: 'Restore this version' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Restore this version?' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Restore this version?' })).toBeNull());
    expect(spies.submit).not.toHaveBeenCalled();
  });
});

describe('a long text’s change', () => {
  it('shows the words taken out and put in, not the two texts', async () => {
    const described = change('4', '2026-11-21T10:00:00Z', 'Anna Owner', [{ field: 'description', before: 'Tomatoes, mozzarella and basil', after: 'Tomatoes, buffalo mozzarella and basil' }], { ...dish });
    await openHistory([described], 'Anna Owner');
    const added = await screen.findByText('buffalo', { selector: 'ins', exact: false });
    expect(added.closest('dd')?.textContent).toBe('Tomatoes, buffalo mozzarella and basil');
    expect(added.closest('dd')?.querySelector('del')).toBeNull();
  });
});
