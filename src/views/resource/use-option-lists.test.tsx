import { msg } from '@lingui/core/macro';
import { screen, waitFor } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import { boundTo } from '../../contract/resource';
import { gastroCategories, gastroItems } from '../../contract/resources/gastro';
import { clearLocalData, type WireRow } from '../../db/database';
import { keepList, resourceStore } from '../../db/device-store';
import { initialListQuery } from '../../machines/list.machine';
import { itemsScreen } from '../cms/gastro';
import { renderResourceScreen } from './fake-store.test-support';
import { preloadFieldKinds } from './field-kinds';
import { ResourceFormPage } from './resource-form';

// A dish's form on a phone without a connection (issue 18): its choices are every category the
// device holds, whichever screen fetched it, and the ones made here and not sent yet; a chosen
// one is named, never shown as its id.

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const MENU = '0190a1b2-0000-7000-8000-00000000b001';
const uuid = (n: number) => `0190a1b2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const [MAINS, DESSERTS, DRINKS, GONE, SOUP] = [uuid(901), uuid(902), uuid(903), uuid(904), uuid(1)];
const at = '2026-03-01T10:00:00.000Z';

const categories = boundTo(gastroCategories, { menuId: MENU });
const dishes = boundTo(gastroItems, { menuId: MENU });
const category = (id: string, position: number, name: string): WireRow => ({ _id: id, id, menuId: MENU, position, name, description: '', version: 1, createdAt: at, updatedAt: at });
const dish = (categoryId: string | null): WireRow => ({
  _id: SOUP,
  id: SOUP,
  menuId: MENU,
  position: 0,
  name: 'Soup',
  description: '',
  price: 450,
  currency: 'EUR',
  categoryId,
  allergenIds: [],
  available: true,
  mediaId: null,
  version: 1,
  createdAt: at,
  updatedAt: at,
});

function goOffline() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
}

function openForm(id: string | null) {
  const path = id ? `/cms/${SITE}/gastromenu/${MENU}/items/edit/${id}` : `/cms/${SITE}/gastromenu/${MENU}/items/new`;
  return renderResourceScreen(
    <Route path={id ? '/cms/:websiteId/gastromenu/:menuId/items/edit/:itemId' : '/cms/:websiteId/gastromenu/:menuId/items/new'}>
      <ResourceFormPage screen={itemsScreen} title={msg`Dish`} id={id} />
    </Route>,
    resourceStore,
    { path },
  );
}

const categorySelect = async () => (await screen.findByLabelText('Category')) as HTMLSelectElement;
const offered = (select: HTMLSelectElement) => [...select.options].map((option) => option.textContent);

beforeEach(async () => {
  await clearLocalData();
  localStorage.clear();
  await preloadFieldKinds(itemsScreen.fields);
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('choices offline', () => {
  it('offers every category this device holds, in their order, and the one made offline, at once', async () => {
    // The menu's categories as its categories screen read them (all of them, in their order).
    await keepList(categories, initialListQuery(categories), [category(MAINS, 0, 'Mains'), category(DESSERTS, 1, 'Desserts')]);
    goOffline();
    await resourceStore.submit(categories, { kind: 'create', id: DRINKS, values: { name: 'Drinks', description: '' } });

    openForm(null);

    const select = await categorySelect();
    await waitFor(() => expect(offered(select)).toEqual(['Choose…', 'Mains', 'Desserts', 'Drinks']));
  });

  it('names a dish’s category that only a search brought to this device', async () => {
    await keepList(dishes, initialListQuery(dishes), [dish(DESSERTS)]);
    await keepList(categories, { search: 'Dess' }, [category(DESSERTS, 1, 'Desserts')]);
    goOffline();

    openForm(SOUP);

    const select = await categorySelect();
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('Desserts'));
    expect(offered(select)).not.toContain(DESSERTS);
  });

  it('calls a category nowhere on this device “unknown”, never by its id, and does not offer it to others', async () => {
    await keepList(dishes, initialListQuery(dishes), [dish(GONE)]);
    await keepList(categories, initialListQuery(categories), [category(MAINS, 0, 'Mains')]);
    goOffline();

    openForm(SOUP);

    const select = await categorySelect();
    await waitFor(() => expect(select.selectedOptions[0]?.textContent).toBe('unknown'));
    expect(offered(select)).toEqual(['Choose…', 'Mains', 'unknown']);
    expect(document.body.textContent).not.toContain(GONE);
  });
});
