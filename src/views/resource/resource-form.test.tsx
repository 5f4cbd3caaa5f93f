import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/request';
import { saveSession } from '../../api/session';
import { preloadPath } from '../../app/routes';
import { gastroItems } from '../../contract/resources/gastro';
import { resourceStore } from '../../db/device-store';
import { sessionUser } from '../render-screen.test-support';
import { toast } from '../../machines/feedback';
import { categories, languages, subcategories } from '../../contract/resources/catalogs';
import { Route } from 'wouter';
import { languagesScreen, subcategoriesScreen } from '../admin/catalogs';
import { itemsScreen } from '../cms/gastro';
import { fakeStore, renderResourceScreen, row } from './fake-store.test-support';
import { preloadFieldKinds } from './field-kinds';
import { ResourceFormPage } from './resource-form';
import { ResourceListPage } from './resource-list-page';

const FOOD = '0190a1b2-0000-7000-8000-0000000000c1';
const BAKERY = '0190a1b2-0000-7000-8000-0000000000b1';
const ENGLISH = '0190a1b2-0000-7000-8000-0000000000e1';
const uuid = (n: string) => `0190a1b2-0000-7000-8000-00000000${n}`;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const seed = () => ({
  categories: [row({ id: FOOD, name: 'Food' })],
  subcategories: [row({ id: BAKERY, name: 'Bakery', categoryId: FOOD, description: 'Bread and cakes' })],
  languages: [row({ id: ENGLISH, name: 'English', code: 'en', content: { de: { name: 'Englisch' } }, version: 3 })],
});

function openList(store: ReturnType<typeof fakeStore>['store']) {
  return renderResourceScreen(<ResourceListPage screen={subcategoriesScreen} title={msg`Subcategories`} />, store);
}

const dialog = (name: string) => screen.findByRole('dialog', { name });
const type = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

async function answer(title: string, button: string) {
  const question = await screen.findByRole('dialog', { name: title });
  fireEvent.click(within(question).getByRole('button', { name: button }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: title })).toBeNull());
}

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ResourceFormDialog', () => {
  it('checks the fields with the resource’s schema, then creates the record with its own UUID v7', async () => {
    const { store, spies } = fakeStore(seed());
    openList(store);
    await screen.findByText('Showing 1–1 of 1');

    fireEvent.click(screen.getByRole('button', { name: 'Add subcategory' }));
    const form = await dialog('Add subcategory');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getAllByText('This field is required')).toHaveLength(2);
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(spies.submit).not.toHaveBeenCalled();

    type(form, 'Name', '  Patisserie ');
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Food' })).toBeDefined());
    type(form, 'Category', FOOD);
    // Typing at a field takes its error away.
    expect(within(form).queryAllByText('This field is required')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Subcategory created successfully'));
    expect(spies.submit).toHaveBeenCalledWith(subcategories, { kind: 'create', id: expect.stringMatching(UUID_V7), values: { name: 'Patisserie', description: '', categoryId: FOOD } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Showing 1–2 of 2')).toBeDefined();
  });

  it('takes its choices from the list page, which has loaded them already', async () => {
    const { store, spies } = fakeStore(seed());
    openList(store);
    await screen.findByText('Showing 1–1 of 1');
    const categoryLoads = () => spies.fetchList.mock.calls.filter(([resource]) => resource === categories).length;
    await waitFor(() => expect(categoryLoads()).toBe(1));

    fireEvent.click(screen.getByRole('button', { name: 'Add subcategory' }));
    const form = await dialog('Add subcategory');
    expect(within(form).getByRole('option', { name: 'Food' })).toBeDefined();
    expect(categoryLoads()).toBe(1);
  });

  it('shows the server’s field errors at their fields and keeps what was typed', async () => {
    const { store, spies } = fakeStore(seed());
    spies.submit.mockResolvedValueOnce({ status: 'failed', message: 'Some fields are not valid', errors: [{ path: 'body.name', message: 'This value is already in use' }] });
    openList(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bakery' }));
    const form = await dialog('Edit subcategory');
    await waitFor(() => expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bakery'));

    type(form, 'Name', 'Bistro');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await within(form).findByText('This value is already in use')).toBeDefined();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bistro');
    // An update sends the edited field only, against the version it was loaded at.
    expect(spies.submit).toHaveBeenCalledWith(subcategories, { kind: 'update', id: BAKERY, values: { name: 'Bistro' }, baseVersion: 1 });
  });

  it('offers keep-mine after a conflict, sending my edit again on top of the server’s version', async () => {
    const { store, spies } = fakeStore(seed());
    const theirs = row({ id: BAKERY, name: 'Bäckerei', categoryId: FOOD, description: 'Bread and cakes', version: 2 });
    spies.submit.mockResolvedValueOnce({ status: 'conflict', current: theirs, message: 'Someone else changed this subcategory in the meantime.' });
    openList(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bakery' }));
    const form = await dialog('Edit subcategory');
    await waitFor(() => expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bakery'));

    type(form, 'Name', 'Bakehouse');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const conflict = await within(form).findByRole('alert');
    expect(within(conflict).getByText('Someone else changed this subcategory in the meantime.')).toBeDefined();
    expect(within(conflict).getByText('Theirs: Bäckerei · Yours: Bakehouse')).toBeDefined();
    fireEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Subcategory updated successfully'));
    expect(spies.submit).toHaveBeenLastCalledWith(subcategories, { kind: 'update', id: BAKERY, values: { name: 'Bakehouse' }, baseVersion: 2 });
  });

  it('shows a conflict by the fields’ labels, with both values in words: money, a category by its name, yes or no', async () => {
    await preloadFieldKinds(itemsScreen.fields);
    const [menu, mains, desserts, soup] = [uuid('b001'), uuid('c001'), uuid('c002'), uuid('d001')];
    const mine = { id: soup, menuId: menu, position: 0, name: 'Soup', price: 450, currency: 'EUR', categoryId: mains, allergenIds: [], available: true, mediaId: null };
    const { store, spies } = fakeStore({
      gastroItems: [row(mine)],
      gastroCategories: [row({ id: mains, menuId: menu, position: 0, name: 'Mains' }), row({ id: desserts, menuId: menu, position: 1, name: 'Desserts' })],
      gastroAllergens: [],
      media: [],
    });
    spies.submit.mockResolvedValueOnce({ status: 'conflict', current: row({ ...mine, price: 1090, categoryId: desserts, version: 2 }), message: 'Someone else changed this dish in the meantime.' });
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId/items/edit/:itemId">
        <ResourceFormPage screen={itemsScreen} title={msg`Edit dish`} id={soup} />
      </Route>,
      store,
      { path: `/cms/w1/gastromenu/${menu}/items/edit/${soup}` },
    );
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Soup'));
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '11,50' } });
    fireEvent.click(screen.getByLabelText('Available'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const conflict = await screen.findByRole('alert');
    const shown = () => [...conflict.querySelectorAll('dt')].map((term) => `${term.textContent} ${term.nextElementSibling?.textContent}`);
    await waitFor(() =>
      expect(shown()).toEqual(['Price Theirs: €10.90 · Yours: €11.50', 'Category Theirs: Desserts · Yours: Mains', 'Available Theirs: Yes · Yours: No']),
    );
  });

  it('offers take-theirs after a conflict, loading the server’s version into the form', async () => {
    const { store, spies } = fakeStore(seed());
    const theirs = row({ id: BAKERY, name: 'Bäckerei', categoryId: FOOD, description: 'Brot', version: 2 });
    spies.submit.mockResolvedValueOnce({ status: 'conflict', current: theirs, message: 'Someone else changed this subcategory in the meantime.' });
    openList(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bakery' }));
    const form = await dialog('Edit subcategory');
    await waitFor(() => expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bakery'));
    type(form, 'Name', 'Bakehouse');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    fireEvent.click(within(await within(form).findByRole('alert')).getByRole('button', { name: 'Take theirs' }));

    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bäckerei');
    expect((within(form).getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Brot');
    expect(within(form).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    expect(spies.submit).toHaveBeenCalledOnce();
    // The refused change leaves this device's outbox, so the sync panel no longer offers it.
    await waitFor(() => expect(spies.dropLocal).toHaveBeenCalledWith(expect.objectContaining({ name: 'subcategories' }), BAKERY));
  });

  it('closes on a save queued on this device without a toast: the header’s count is the one signal', async () => {
    const { store, spies } = fakeStore(seed());
    spies.submit.mockResolvedValueOnce({ status: 'queued' });
    openList(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Bakery' }));
    const form = await dialog('Edit subcategory');
    await waitFor(() => expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Bakery'));
    type(form, 'Description', 'Bread');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toast.info).not.toHaveBeenCalled();
  });

  it('asks before closing with unsaved changes, and closes at once without', async () => {
    const { store } = fakeStore(seed());
    openList(store);
    await screen.findByText('Showing 1–1 of 1');

    fireEvent.click(screen.getByRole('button', { name: 'Add subcategory' }));
    fireEvent.click(within(await dialog('Add subcategory')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Add subcategory' }));
    const form = await dialog('Add subcategory');
    type(form, 'Name', 'Deli');
    fireEvent.click(within(form).getByRole('button', { name: 'Close' }));
    const question = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(question).getByText('You have unsaved changes. Leave without saving them?')).toBeDefined();
    await answer('Unsaved changes', 'Stay');
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Deli');

    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    await answer('Unsaved changes', 'Leave');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add subcategory' })).toBeNull());
  });
});

describe('ResourceFormPage', () => {
  it('creates a language with names in other languages, then goes back to the list', async () => {
    const { store, spies } = fakeStore(seed());
    // The translations editor is a field kind of its own chunk, loaded as the app's form asks for it.
    await preloadFieldKinds(languagesScreen.fields);
    const { path } = renderResourceScreen(<ResourceFormPage screen={languagesScreen} title={msg`New language`} id={null} />, store, { path: '/languages/new' });
    const form = screen.getByRole('region', { name: 'New language' });

    type(form, 'Name', 'French');
    type(form, 'Code', 'fr');
    type(form, 'Language code', 'de');
    type(form, 'Translated name', 'Französisch');
    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    expect((within(form).getByLabelText('Translated name (de)') as HTMLInputElement).value).toBe('Französisch');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(path()).toBe('/languages'));
    expect(spies.submit).toHaveBeenCalledWith(languages, {
      kind: 'create',
      id: expect.stringMatching(UUID_V7),
      values: { name: 'French', code: 'fr', content: { de: { name: 'Französisch' } } },
    });
    expect(toast.success).toHaveBeenCalledWith('Language created successfully');
  });

  it('edits a language from this device’s copy at once and sends only the edited field', async () => {
    const { store, spies } = fakeStore(seed());
    const copy = row({ id: ENGLISH, name: 'English', code: 'en', content: { de: { name: 'Englisch' } }, version: 3 });
    spies.cachedRecord.mockResolvedValue({ value: copy, fetchedAt: Date.now() });
    spies.fetchRecord.mockRejectedValue(new ApiError('Network error or server unavailable', 0));
    renderResourceScreen(<ResourceFormPage screen={languagesScreen} title={msg`Edit language`} id={ENGLISH} />, store, { path: `/languages/edit/${ENGLISH}` });
    const form = screen.getByRole('region', { name: 'Edit language' });

    await waitFor(() => expect((within(form).getByLabelText('Translated name (de)') as HTMLInputElement).value).toBe('Englisch'));
    // The server could not be reached: the copy stays editable, with its age.
    expect(await within(form).findByText(/^Offline — showing data as of /)).toBeDefined();
    fireEvent.change(within(form).getByLabelText('Translated name (de)'), { target: { value: 'Englisch (UK)' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(spies.submit).toHaveBeenCalledWith(languages, { kind: 'update', id: ENGLISH, values: { content: { de: { name: 'Englisch (UK)' } } }, baseVersion: 3 }),
    );
  });

  it('says the record could not be loaded when there is no copy, and tries again on request', async () => {
    const { store, spies } = fakeStore(seed());
    spies.fetchRecord.mockRejectedValueOnce(new ApiError('Network error or server unavailable', 0));
    renderResourceScreen(<ResourceFormPage screen={languagesScreen} title={msg`Edit language`} id={ENGLISH} />, store, { path: `/languages/edit/${ENGLISH}` });

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load languages')).toBeDefined();
    expect(alert.textContent).toContain('Network error or server unavailable');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('en'));
  });

  it('loads a record this device never had once it is back online, without a tap', async () => {
    const { store, spies } = fakeStore(seed());
    spies.fetchRecord.mockRejectedValueOnce(new ApiError('Network error or server unavailable', 0));
    renderResourceScreen(<ResourceFormPage screen={languagesScreen} title={msg`Edit language`} id={ENGLISH} />, store, { path: `/languages/edit/${ENGLISH}` });
    await screen.findByRole('alert');
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('en'));
  });

  it('asks before following a link away from unsaved changes', async () => {
    const { store } = fakeStore(seed());
    const { path } = renderResourceScreen(<ResourceFormPage screen={languagesScreen} title={msg`New language`} id={null} />, store, { path: '/languages/new' });
    const form = screen.getByRole('region', { name: 'New language' });
    type(form, 'Name', 'Welsh');

    fireEvent.click(screen.getByRole('link', { name: 'Back to the list' }));
    await answer('Unsaved changes', 'Stay');
    expect(path()).toBe('/languages/new');

    fireEvent.click(screen.getByRole('link', { name: 'Back to the list' }));
    await answer('Unsaved changes', 'Leave');
    expect(path()).toBe('/languages');
  });
});

describe('a record’s editor opened by its address', () => {
  it('starts reading the record, from the device and the server, while its code loads, and the form takes those reads', async () => {
    saveSession('token', sessionUser());
    const cachedRecord = vi.spyOn(resourceStore, 'cachedRecord').mockResolvedValue(null);
    const fetchRecord = vi.spyOn(resourceStore, 'fetchRecord').mockReturnValue(new Promise(() => {}));
    // The choices of its selects: none here, and no server.
    vi.spyOn(resourceStore, 'cachedList').mockResolvedValue(null);
    vi.spyOn(resourceStore, 'fetchList').mockReturnValue(new Promise(() => {}));
    const [site, menu, dish] = [uuid('0a51'), uuid('0b01'), uuid('0d15')];
    await preloadPath(`/cms/${site}/gastromenu/${menu}/items/edit/${dish}`, Promise.resolve());
    expect(cachedRecord).toHaveBeenCalledWith(expect.objectContaining({ name: gastroItems.name, boundKey: menu }), dish);
    expect(fetchRecord).toHaveBeenCalledTimes(1);

    // No copy on the device: the form waits for the server's answer, the one asked for already.
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId/items/edit/:itemId">
        <ResourceFormPage screen={itemsScreen} title={msg`Edit dish`} id={dish} />
      </Route>,
      resourceStore,
      { path: `/cms/${site}/gastromenu/${menu}/items/edit/${dish}` },
    );
    expect(await screen.findByText('Loading…')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cachedRecord).toHaveBeenCalledTimes(1);
    expect(fetchRecord).toHaveBeenCalledTimes(1);
  });
});
