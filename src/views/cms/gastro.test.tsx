import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/send';
import { toast } from '../../machines/feedback';
import { findRoute } from '../../app/routes';
import { boundTo } from '../../contract/resource';
import { DEFAULT_ALLERGENS, gastroAllergens, gastroCategories, gastroItems, gastroMenus } from '../../contract/resources/gastro';
import { db } from '../../db/database';
import { keepList, resourceStore as deviceStore } from '../../db/device-store';
import { messages as german } from '../../locales/de/messages';
import { initialListQuery } from '../../machines/list.machine';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { preloadFieldKinds } from '../resource/field-kinds';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import { json, mockedServer, sessionUser } from '../render-screen.test-support';
import { allergensScreen, GastroCategoriesPage, GastroMenuEditPage, itemsScreen } from './gastro';
import { AllergenTools } from './gastro-allergens';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const MENU = '0190a1b2-0000-7000-8000-00000000b001';
const uuid = (n: number) => `0190a1b2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const [GLUTEN, MILK, MAINS] = [uuid(801), uuid(802), uuid(901)];

const allergen = (id: string, identifier: string | null, name: string) => row({ id, identifier, name, content: {} });
const seed = () => ({
  gastroMenus: [row({ id: MENU, name: 'Summer menu', status: 'draft', language: 'de' }), row({ id: uuid(2), name: 'Winter menu', status: 'draft', language: 'de' })],
  gastroCategories: [row({ id: MAINS, menuId: MENU, position: 0, name: 'Mains' })],
  gastroAllergens: [allergen(GLUTEN, 'A', 'Cereals containing gluten'), allergen(MILK, 'G', 'Milk and lactose')],
  gastroItems: [row({ id: uuid(1), menuId: MENU, position: 0, name: 'Soup', price: 450, currency: 'EUR', categoryId: null, allergenIds: [], available: true, mediaId: null })],
  media: [],
});

const type = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
const fetchMock = mockedServer();


describe('the gastronomy routes', () => {
  it('are all pages of one chunk', () => {
    const paths = ['', '/new', `/edit/${MENU}`, `/${MENU}`, `/${MENU}/categories`, `/${MENU}/allergens`, '/categories', '/allergens', `/${MENU}/items/new`, `/${MENU}/items/edit/${uuid(1)}`];
    for (const path of paths) expect(findRoute(`/cms/${SITE}/gastromenu${path}`).page?.preload, path).toBeTypeOf('function');
    // "Add dish" opens a page that says so.
    expect(i18n._(findRoute(`/cms/${SITE}/gastromenu/${MENU}/items/new`).title)).toBe('New dish');
    expect(i18n._(findRoute(`/cms/${SITE}/gastromenu/${MENU}/items/edit/${uuid(1)}`).title)).toBe('Edit dish');
  });
});

describe('a dish’s form', () => {
  it('starts available in the default currency, takes the price as typed, and names the website’s allergens by letter', async () => {
    await preloadFieldKinds(itemsScreen.fields);
    const { store, spies } = fakeStore(seed());
    const { path } = renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId/items/new">
        <ResourceFormPage screen={itemsScreen} title={msg`New dish`} id={null} />
      </Route>,
      store,
      { path: `/cms/${SITE}/gastromenu/${MENU}/items/new` },
    );

    const form = document.body;
    type(form, 'Name', 'Schnitzel');
    expect((screen.getByLabelText('Available') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Currency') as HTMLInputElement).value).toBe('EUR');
    type(form, 'Price', '14,90');
    const allergens = screen.getByRole('group', { name: 'Allergens' });
    fireEvent.click(await within(allergens).findByRole('checkbox', { name: 'G · Milk and lactose' }));
    fireEvent.click(within(allergens).getByRole('checkbox', { name: 'A · Cereals containing gluten' }));
    await waitFor(() => expect(screen.getByRole('option', { name: 'Mains' })).toBeDefined());
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: MAINS } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    const [resource, mutation] = spies.submit.mock.calls[0]!;
    expect([resource.name, resource.boundKey]).toEqual([gastroItems.name, MENU]);
    expect(mutation).toMatchObject({
      kind: 'create',
      values: { name: 'Schnitzel', description: '', price: 1490, currency: 'EUR', categoryId: MAINS, allergenIds: [MILK, GLUTEN], available: true, mediaId: null },
    });
    // Saved: back to the menu.
    await waitFor(() => expect(path()).toBe(`/cms/${SITE}/gastromenu/${MENU}`));
  });

  it('asks for a price rather than saving one nobody typed', async () => {
    await preloadFieldKinds(itemsScreen.fields);
    const { store, spies } = fakeStore(seed());
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId/items/new">
        <ResourceFormPage screen={itemsScreen} title={msg`New dish`} id={null} />
      </Route>,
      store,
      { path: `/cms/${SITE}/gastromenu/${MENU}/items/new` },
    );
    type(document.body, 'Name', 'Soup');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Price').getAttribute('aria-invalid')).toBe('true'));
    expect(spies.submit).not.toHaveBeenCalled();
  });
});

function openAllergens(store: ReturnType<typeof fakeStore>['store'], onChanged = vi.fn()) {
  const allergens = boundTo(gastroAllergens, { websiteId: SITE });
  renderResourceScreen(
    <Route path="/cms/:websiteId/gastromenu/allergens">
      <ResourceListPage screen={allergensScreen} title={msg`Allergens`} tools={<AllergenTools allergens={allergens} websiteId={SITE} onChanged={onChanged} />} />
    </Route>,
    store,
    { path: `/cms/${SITE}/gastromenu/allergens` },
  );
  return onChanged;
}

describe('the allergens', () => {
  it('upper-cases a letter, leaves an empty one out of a create, and clears it with null on an edit', async () => {
    const { store, spies } = fakeStore(seed());
    openAllergens(store);
    await screen.findByText('Cereals containing gluten');

    fireEvent.click(screen.getByRole('button', { name: 'Add allergen' }));
    let form = await screen.findByRole('dialog', { name: 'Add allergen' });
    type(form, 'Name', 'Lupin');
    type(form, 'Letter', ' p ');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalledTimes(1));
    expect(spies.submit.mock.calls[0]![1]).toMatchObject({ kind: 'create', values: { identifier: 'P', name: 'Lupin' } });

    fireEvent.click(await screen.findByRole('button', { name: 'Add allergen' }));
    form = await screen.findByRole('dialog', { name: 'Add allergen' });
    type(form, 'Name', 'Celery');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalledTimes(2));
    const sent = JSON.parse(JSON.stringify(spies.submit.mock.calls[1]![1]));
    expect(sent.values).toEqual({ name: 'Celery', content: {} });

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Milk and lactose' }));
    form = await screen.findByRole('dialog', { name: 'Edit allergen' });
    await waitFor(() => expect((within(form).getByLabelText('Letter') as HTMLInputElement).value).toBe('G'));
    type(form, 'Letter', '');
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalledTimes(3));
    expect(spies.submit.mock.calls[2]![1]).toEqual({ kind: 'update', id: MILK, values: { identifier: null }, baseVersion: 1 });
  });

  it('shows the whole legend on one page, each allergen named in the interface’s language, with the languages it is translated into by name', async () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    const legend = DEFAULT_ALLERGENS.map(({ identifier, en, de }, index) => row({ id: uuid(700 + index), identifier, name: en, content: { de: { name: de } } }));
    const { store } = fakeStore({ ...seed(), gastroAllergens: legend });
    openAllergens(store);
    await screen.findByText('Glutenhaltiges Getreide');
    expect(screen.queryByText('Cereals containing gluten')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(1 + DEFAULT_ALLERGENS.length);
    expect(screen.getAllByText('Deutsch')).toHaveLength(DEFAULT_ALLERGENS.length);
  });

  it('online, loads the default set with the server’s call and keeps the legend it answers on this device', async () => {
    localStorage.setItem('auth_token', 'token');
    const legend = DEFAULT_ALLERGENS.map(({ identifier, en, de }, index) => ({
      _id: uuid(700 + index),
      id: uuid(700 + index),
      version: 1,
      createdAt: '2026-01-01T10:00:00Z',
      updatedAt: '2026-01-01T10:00:00Z',
      identifier,
      name: en,
      content: { de: { name: de } },
    }));
    fetchMock.mockResolvedValueOnce(json({ success: true, data: legend, message: '12 allergens added' }));
    const { store } = fakeStore(seed());
    const onChanged = openAllergens(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Load default allergens' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('12 allergens added'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([url, init?.method]).toEqual([`/api/cms/gastro-menus/${SITE}/allergens/default`, 'POST']);
    expect(onChanged).toHaveBeenCalled();
    const allergens = boundTo(gastroAllergens, { websiteId: SITE });
    const { resourceStore } = await import('../../db/device-store');
    const kept = await resourceStore.cachedList(allergens, initialListQuery(allergens, { limit: 100 }));
    expect(kept?.value.items.map((item) => item.identifier)).toEqual(DEFAULT_ALLERGENS.map((item) => item.identifier));
  });

  it('offline, makes only the default letters this device does not show yet, each an ordinary create for the outbox', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { store, spies } = fakeStore(seed());
    openAllergens(store);
    await screen.findByText('Cereals containing gluten');

    fireEvent.click(screen.getByRole('button', { name: 'Load default allergens' }));
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('12 allergens saved on this device; they will be sent when you are online.'));
    const made = spies.submit.mock.calls.map(([resource, mutation]) => [resource.name, mutation.kind, mutation.kind === 'delete' ? null : mutation.values.identifier]);
    expect(made).toHaveLength(12);
    expect(made.map(([, , letter]) => letter)).toEqual(DEFAULT_ALLERGENS.map((item) => item.identifier).filter((letter) => letter !== 'A' && letter !== 'G'));
    expect(spies.submit.mock.calls[0]![1]).toMatchObject({ kind: 'create', values: { identifier: 'B', name: 'Crustaceans', content: { de: { name: 'Krebstiere' } } } });
    expect(fetchMock).not.toHaveBeenCalled();

    // The clean-up waits in the outbox as the declared action, to run on the server once online.
    fireEvent.click(screen.getByRole('button', { name: 'Remove deleted allergens from dishes' }));
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('Saved on this device; the allergens are removed from the dishes when you are online.'));
    const queued = (await db.outbox.toArray()).filter((entry) => entry.kind === 'action');
    expect(queued).toEqual([
      expect.objectContaining({ method: 'POST', path: `/api/cms/gastro-menus/${SITE}/items/cleanup-allergens`, status: 'pending', label: { item: 'Clean up allergens', title: '' } }),
    ]);
    expect(queued[0]!.idempotencyKey).toBe(queued[0]!.entityId);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('cleans up the dishes with the server’s call, keeps the dishes it changed, and says what went wrong in spec §8’s words', async () => {
    localStorage.setItem('auth_token', 'token');
    const changed = { _id: uuid(1), id: uuid(1), version: 2, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-02T10:00:00Z', menuId: MENU, position: 0, name: 'Soup', description: '', price: 450, currency: 'EUR', categoryId: null, allergenIds: [], available: true, mediaId: null };
    fetchMock.mockResolvedValueOnce(json({ success: true, data: { changed: 1, items: [changed] }, message: 'Deleted allergens removed from 1 dish' }));
    fetchMock.mockResolvedValueOnce(json({ success: false }, 500));
    const { store } = fakeStore(seed());
    openAllergens(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Remove deleted allergens from dishes' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Deleted allergens removed from 1 dish'));
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/cms/gastro-menus/${SITE}/items/cleanup-allergens`);
    expect(await db.records.get([gastroItems.name, uuid(1)])).toMatchObject({ scope: MENU, row: { version: 2 } });

    await waitFor(() => expect((screen.getByRole('button', { name: 'Remove deleted allergens from dishes' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Remove deleted allergens from dishes' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to cleanup orphaned allergens'));
  });

  it('offers neither call to a member who may only view them', async () => {
    const { store } = fakeStore(seed());
    const viewer = sessionUser({ type: 'teammember', role: 'waiter', websiteId: SITE, roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: 'view' } } });
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/allergens">
        <ResourceListPage screen={allergensScreen} title={msg`Allergens`} tools={<AllergenTools allergens={boundTo(gastroAllergens, { websiteId: SITE })} websiteId={SITE} onChanged={vi.fn()} />} />
      </Route>,
      store,
      { path: `/cms/${SITE}/gastromenu/allergens`, user: viewer },
    );
    await screen.findByText('Cereals containing gluten');
    expect(screen.queryByRole('button', { name: 'Load default allergens' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove deleted allergens from dishes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add allergen' })).toBeNull();
  });
});

/** Pages that read through the app's store: the fake one answers instead. */
async function answerFor(store: ReturnType<typeof fakeStore>['store']) {
  const { resourceStore } = await import('../../db/device-store');
  for (const method of ['cachedList', 'fetchList', 'fetchRecord'] as const) vi.spyOn(resourceStore, method).mockImplementation(store[method] as never);
}

describe('a menu’s edit page', () => {
  it('has the menu’s form, its links, and its dishes in their order, to move', async () => {
    const { store } = fakeStore({
      ...seed(),
      gastroItems: ['Soup', 'Steak', 'Cake'].map((name, index) => row({ id: uuid(10 + index), menuId: MENU, position: index, name, price: 100, currency: 'EUR', categoryId: null, allergenIds: [], available: index !== 1, mediaId: null })),
    });
    await answerFor(store);
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/edit/:menuId">
        <GastroMenuEditPage title={msg`Edit gastronomy menu`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/gastromenu/edit/${MENU}` },
    );
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Summer menu'));
    expect(screen.getByRole('link', { name: 'Show the menu' }).getAttribute('href')).toBe(`/cms/${SITE}/gastromenu/${MENU}`);
    const dishes = await screen.findByRole('list', { name: 'Dishes' });
    expect(within(dishes).getAllByRole('listitem').map((item) => item.textContent?.split('Price')[0])).toEqual(['Soup', 'Steak', 'Cake']);
    expect(within(dishes).getByText('Not available')).toBeDefined();
    // Its column says what it is about, so a dish reads "Availability: Available", not "Available Available".
    expect(within(dishes).getAllByRole('listitem')[0]!.textContent).toMatch(/Availability\s*Available/);
    expect(within(dishes).getByRole('button', { name: 'Move Cake up' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Add dish' }).getAttribute('href')).toBe(`/cms/${SITE}/gastromenu/${MENU}/items/new`);
  });
});

describe('a menu’s edit page offline', () => {
  it('names each dish’s category, from the categories this device holds', async () => {
    const at = '2026-03-01T10:00:00.000Z';
    const wire = (fields: Record<string, unknown>) => ({ ...fields, _id: fields.id as string, version: 1, createdAt: at, updatedAt: at });
    const categories = boundTo(gastroCategories, { menuId: MENU });
    const dishes = boundTo(gastroItems, { menuId: MENU });
    const menu = wire({ id: MENU, name: 'Summer menu', description: '', status: 'draft', language: 'de' });
    await keepList(boundTo(gastroMenus, { websiteId: SITE }), {}, [menu]);
    await keepList(categories, initialListQuery(categories), [wire({ id: MAINS, menuId: MENU, position: 0, name: 'Mains', description: '' })]);
    const dish = (n: number, name: string, categoryId: string | null) =>
      wire({ id: uuid(n), menuId: MENU, position: n, name, description: '', price: 100, currency: 'EUR', categoryId, allergenIds: [], available: true, mediaId: null });
    await keepList(dishes, initialListQuery(dishes), [dish(10, 'Steak', MAINS), dish(11, 'Bread', null)]);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/edit/:menuId">
        <GastroMenuEditPage title={msg`Edit gastronomy menu`} />
      </Route>,
      deviceStore,
      { path: `/cms/${SITE}/gastromenu/edit/${MENU}` },
    );

    const list = await screen.findByRole('list', { name: 'Dishes' });
    const category = (name: string) => within(list).getByText(name).closest('li')!.textContent;
    await waitFor(() => expect(category('Steak')).toContain('Category Mains'));
    expect(category('Bread')).not.toContain(MAINS);
  });
});

/** The categories page that asks which menu first. */
const renderChooser = (store: ReturnType<typeof fakeStore>['store']) =>
  renderResourceScreen(
    <Route path="/cms/:websiteId/gastromenu/categories">
      <GastroCategoriesPage title={msg`Gastronomy categories`} />
    </Route>,
    store,
    { path: `/cms/${SITE}/gastromenu/categories` },
  );

describe('categories without a menu', () => {
  it('ask which menu, and lead to its categories', async () => {
    const { store } = fakeStore(seed());
    await answerFor(store);
    renderChooser(store);
    const link = await screen.findByRole('link', { name: 'Winter menu' });
    expect(link.getAttribute('href')).toBe(`/cms/${SITE}/gastromenu/${uuid(2)}/categories`);
    expect(screen.getByRole('link', { name: 'Summer menu' })).toBeDefined();
  });

  it('say why the menus could not be loaded, instead of loading for ever, and load them on Try again', async () => {
    const { store, spies } = fakeStore(seed());
    spies.fetchList.mockRejectedValueOnce(new ApiError('You may not see these menus.', 403));
    renderChooser(store);
    const problem = await screen.findByRole('alert');
    expect(problem.textContent).toContain('You may not see these menus.');
    expect(screen.queryByText('Loading…')).toBeNull();
    fireEvent.click(within(problem).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Winter menu' })).toBeDefined();
  });
});
