import { msg } from '@lingui/core/macro';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ApiError } from '../../api/request';
import { findRoute } from '../../app/routes';
import { boundTo } from '../../contract/resource';
import { gastroAllergens, gastroCategories, gastroItems, gastroMenus } from '../../contract/resources/gastro';
import type { Resource } from '../../contract/resource';
import { clearLocalData } from '../../db/database';
import { keepList, resourceStore } from '../../db/device-store';
import { toast } from '../../machines/feedback';
import { initialListQuery } from '../../machines/list.machine';
import { readAhead, recordAhead, type Row } from '../../db/resource-store';
import { sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { registerScreens } from '../resource/screen-registry';
import { itemsScreen } from './gastro';
import { GastroMenuPage, GastroMenuView, menuLines, withMenuData } from './gastro-menu-view';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const MENU = '0190a1b2-0000-7000-8000-00000000b001';
const uuid = (n: number) => `0190a1b2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const [STARTERS, MAINS] = [uuid(901), uuid(902)];
const [GLUTEN, MILK, SESAME] = [uuid(801), uuid(802), uuid(803)];

const dish = (n: number, fields: Record<string, unknown> = {}) =>
  row({ id: uuid(n), menuId: MENU, position: n, name: `Dish ${n}`, price: 100 * n, currency: 'EUR', categoryId: null, allergenIds: [], available: true, mediaId: null, ...fields });

const seed = (items: Row[]) => ({
  gastroMenus: [row({ id: MENU, name: 'Summer menu', description: 'From our garden', status: 'published', language: 'de' })],
  gastroCategories: [row({ id: MAINS, menuId: MENU, position: 1, name: 'Mains' }), row({ id: STARTERS, menuId: MENU, position: 0, name: 'Starters' })],
  gastroAllergens: [
    row({ id: GLUTEN, identifier: 'A', name: 'Cereals containing gluten', content: { de: { name: 'Glutenhaltiges Getreide' } } }),
    row({ id: MILK, identifier: 'G', name: 'Milk and lactose', content: { de: { name: 'Milch und Laktose' } } }),
    row({ id: SESAME, identifier: null, name: 'Sesame', content: {} }),
  ],
  gastroItems: items,
  media: [],
});

const menu = () => [
  dish(1, { name: 'Schnitzel', price: 1490, categoryId: MAINS, allergenIds: [MILK, GLUTEN] }),
  dish(2, { name: 'Soup', price: 450, categoryId: STARTERS, description: 'Pumpkin', allergenIds: [SESAME] }),
  dish(3, { name: 'Goulash', price: 1290, categoryId: MAINS, available: false }),
  dish(4, { name: 'Bread', price: 300, categoryId: null }),
];

function open(store: ReturnType<typeof fakeStore>['store'], user = sessionUser()) {
  return renderResourceScreen(
    <Route path="/cms/:websiteId/gastromenu/:menuId">
      <GastroMenuView title={msg`Gastronomy menu`} />
    </Route>,
    store,
    { path: `/cms/${SITE}/gastromenu/${MENU}`, user },
  );
}

const viewer = () =>
  sessionUser({ type: 'teammember', role: 'waiter', websiteId: SITE, roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: 'view' } } });

const dishes = () => screen.getAllByRole('button', { name: /^Dish \d{4}$/ });
/**
 * The names on the dishes' buttons. A role query names every button by the text it is labelled by,
 * asking each node of that text's computed style whether it is hidden, and a text query without a
 * selector reads every element of the page: over 2,000 dishes either took longer than rendering them.
 */
const dishNames = () => screen.getAllByText(/^Dish \d{4}$/, { selector: 'button span' }).map((name) => name.textContent);

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  window.scrollTo(0, 0);
});

describe('the menu view', () => {
  it('is the route /gastromenu/{menuId}, whose read-ahead asks for the dishes and the menu before the screen renders', async () => {
    expect(await findRoute(`/cms/${SITE}/gastromenu/${MENU}`).page?.preload?.()).toBe(GastroMenuPage);
    expect(findRoute(`/cms/${SITE}/gastromenu/categories`).path).toBe('/cms/:websiteId/gastromenu/categories');

    const fetchList = vi.spyOn(resourceStore, 'fetchList').mockReturnValue(new Promise(() => {}));
    vi.spyOn(resourceStore, 'cachedList').mockResolvedValue(null);
    const fetchRecord = vi.spyOn(resourceStore, 'fetchRecord').mockReturnValue(new Promise(() => {}));
    vi.spyOn(resourceStore, 'cachedRecord').mockResolvedValue(null);
    GastroMenuPage.prefetch({ websiteId: SITE, menuId: MENU });
    const items = boundTo(gastroItems, { menuId: MENU });
    expect(fetchList).toHaveBeenCalledWith(expect.objectContaining({ name: gastroItems.name, boundKey: MENU }), initialListQuery(items));
    expect(fetchRecord).toHaveBeenCalledWith(expect.objectContaining({ name: gastroMenus.name, boundKey: SITE }), MENU);
    // The screen takes those reads instead of asking again.
    void readAhead(resourceStore, items, initialListQuery(items)).fetchList(items, initialListQuery(items));
    expect(fetchList).toHaveBeenCalledTimes(1);
    const menus = boundTo(gastroMenus, { websiteId: SITE });
    void recordAhead(resourceStore, menus, MENU).fetchRecord(menus, MENU);
    expect(fetchRecord).toHaveBeenCalledTimes(1);
  });

  it('reads like the printed menu: categories in order, dishes with prices in the menu’s language, letters, what is not available, the legend', async () => {
    const { store } = fakeStore(seed(menu()));
    open(store);

    expect(await screen.findByRole('heading', { level: 1, name: 'Summer menu' })).toBeDefined();
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Starters', 'Mains', 'Weitere Speisen', 'Allergeninformation gemäß Codex-Empfehlung']));
    const menuText = screen.getByRole('article').textContent!;
    // Each dish under its category, in the dishes' order; one of no category after them.
    expect(menuText.indexOf('Soup')).toBeLessThan(menuText.indexOf('Schnitzel'));
    expect(menuText.indexOf('Schnitzel')).toBeLessThan(menuText.indexOf('Goulash'));
    expect(menuText.indexOf('Goulash')).toBeLessThan(menuText.indexOf('Bread'));
    expect(screen.getByRole('article').getAttribute('lang')).toBe('de');

    const schnitzel = screen.getByRole('button', { name: 'Schnitzel' });
    // German amounts and words (the menu's language, not the interface's), the letters in the legend's order.
    expect(schnitzel.textContent).toMatch(/14,90\s€/);
    expect(within(schnitzel).getByText('A, G')).toBeDefined();
    // An allergen without a letter is written out.
    expect(within(screen.getByRole('button', { name: 'Soup' })).getByText('Sesame')).toBeDefined();
    expect(within(screen.getByRole('button', { name: 'Goulash' })).getByText('Nicht verfügbar')).toBeDefined();

    const legend = screen.getByRole('region', { name: 'Allergeninformation gemäß Codex-Empfehlung' });
    expect([...legend.querySelectorAll('dt')].map((term) => term.textContent)).toEqual(['A', 'G']);
    expect(within(legend).getByText('Glutenhaltiges Getreide')).toBeDefined();
  });

  // Each of what moves the dishes once shown, held back in turn: the menu (its description), its
  // categories (their headings), the allergens (their letters).
  it.each([
    ['the menu', (resource: Resource) => resource.name === gastroMenus.name, 'fetchRecord'],
    ['the categories', (resource: Resource) => resource.name === gastroCategories.name, 'fetchList'],
    ['the allergens', (resource: Resource) => resource.name === gastroAllergens.name, 'fetchList'],
  ] as const)('shows no dish to tap while %s may still move it, then all of it at once', async (_what, heldBack, call) => {
    const { store, spies } = fakeStore(seed(menu()));
    const spy = spies[call] as unknown as MockInstance<(resource: Resource, ...rest: unknown[]) => Promise<unknown>>;
    const answer = spy.getMockImplementation()!;
    const gate: { open?: () => void } = {};
    const opened = new Promise<void>((resolve) => (gate.open = resolve));
    spy.mockImplementation(async (resource, ...rest) => {
      if (heldBack(resource)) await opened;
      return answer(resource, ...rest);
    });
    open(store);

    await waitFor(() => expect(spies.fetchList).toHaveBeenCalledWith(expect.objectContaining({ name: gastroItems.name }), expect.anything()));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('button', { name: 'Schnitzel' })).toBeNull();
    expect(screen.getByText('Loading…')).toBeDefined();

    gate.open!();
    const schnitzel = await screen.findByRole('button', { name: 'Schnitzel' });
    expect(screen.getByRole('heading', { level: 2, name: 'Mains' })).toBeDefined();
    expect(screen.getByText('From our garden')).toBeDefined();
    expect(within(schnitzel).getByText('A, G')).toBeDefined();
  });

  it('changes a dish’s availability in two taps, through the store, and shows it at once', async () => {
    const { store, spies } = fakeStore(seed(menu()));
    open(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Schnitzel' }));
    const sheet = await screen.findByRole('dialog', { name: 'Schnitzel' });
    const available = await within(sheet).findByRole('switch', { name: 'Available' });
    await waitFor(() => expect((available as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(available);

    await waitFor(() => expect(spies.submit).toHaveBeenCalledWith(expect.objectContaining({ name: gastroItems.name, boundKey: MENU }), { kind: 'update', id: uuid(1), values: { available: false }, baseVersion: 1 }));
    await waitFor(() => expect(within(screen.getByRole('button', { name: 'Schnitzel' })).getByText('Nicht verfügbar')).toBeDefined());
  });

  it('changes a dish’s price from the same sheet, in cents', async () => {
    const { store, spies } = fakeStore(seed(menu()));
    open(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Soup' }));
    const sheet = await screen.findByRole('dialog', { name: 'Soup' });
    const price = await within(sheet).findByLabelText('Price (EUR)');
    await waitFor(() => expect((price as HTMLInputElement).value).toBe('4.50'));
    fireEvent.change(price, { target: { value: '5,20' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save price' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalledWith(expect.anything(), { kind: 'update', id: uuid(2), values: { price: 520 }, baseVersion: 1 }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Soup' }).textContent).toMatch(/5,20\s€/));
  });

  it('shows a price that changed meanwhile in the sheet by its label, in euros', async () => {
    registerScreens(itemsScreen);
    const { store, spies } = fakeStore(seed(menu()));
    spies.submit.mockResolvedValueOnce({ status: 'conflict', current: dish(2, { name: 'Soup', price: 480, categoryId: STARTERS, description: 'Pumpkin', allergenIds: [SESAME], version: 2 }), message: 'Someone else changed this dish in the meantime.' });
    open(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Soup' }));
    const sheet = await screen.findByRole('dialog', { name: 'Soup' });
    const price = await within(sheet).findByLabelText('Price (EUR)');
    await waitFor(() => expect((price as HTMLInputElement).value).toBe('4.50'));
    fireEvent.change(price, { target: { value: '5,20' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save price' }));

    const conflict = await within(sheet).findByRole('alert');
    // Only the fields the sheet edits: the price, not the dish's name or category.
    await waitFor(() => expect([...conflict.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`)).toEqual(['Price: Theirs: €4.80 · Yours: €5.20']));
  });

  it('shows a member who may only view the menu without anything to change', async () => {
    const { store } = fakeStore(seed(menu()));
    open(store, viewer());

    expect(await screen.findByText('Schnitzel')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Schnitzel' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add dish' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit menu' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Print' })).toBeDefined();
  });

  it('has only the dishes in view of a long menu in the page, and all of them when it is printed', async () => {
    // 500 is well past the 100 rows from which only those in view are rendered; jsdom lays out every
    // printed row, so the bench (not this test) measures a menu of 2,000.
    const many = Array.from({ length: 500 }, (_, index) => dish(index + 1, { name: `Dish ${String(index + 1).padStart(4, '0')}`, position: index }));
    const { store } = fakeStore(seed(many));
    open(store);

    await screen.findByRole('button', { name: 'Dish 0001' });
    expect(dishes().length).toBeLessThan(60);

    act(() => void window.dispatchEvent(new Event('beforeprint')));
    // Every one of them, each once (in the fake store's order, which sorts positions as text).
    expect(dishNames().toSorted()).toEqual(many.map((item) => item.name));
    act(() => void window.dispatchEvent(new Event('afterprint')));
    await waitFor(() => expect(dishes().length).toBeLessThan(60));
  });

  it('says “No menu data returned from server” when the menu is answered without it', async () => {
    const { store, spies } = fakeStore(seed(menu()));
    spies.fetchRecord.mockRejectedValue(new ApiError('Failed to load food menus', 200));
    open(store);
    expect((await screen.findByRole('alert')).textContent).toContain('No menu data returned from server');

    // Only for the menu, and only for an answer without it: a refusal keeps the server's words.
    const refused = withMenuData({ ...store, fetchRecord: () => Promise.reject(new ApiError('Not found', 404)) });
    await expect(refused.fetchRecord(gastroMenus, MENU)).rejects.toThrow('Not found');
  });
});

describe('the menu view offline', () => {
  it('heads the dishes with the categories this device holds, whichever screen fetched them, and one made offline', async () => {
    await clearLocalData();
    const at = '2026-03-01T10:00:00.000Z';
    const wire = (fields: Record<string, unknown>) => ({ ...fields, _id: fields.id as string, version: 1, createdAt: at, updatedAt: at });
    const categories = boundTo(gastroCategories, { menuId: MENU });
    const items = boundTo(gastroItems, { menuId: MENU });
    await keepList(boundTo(gastroMenus, { websiteId: SITE }), {}, [wire({ id: MENU, name: 'Summer menu', description: '', status: 'published', language: 'de' })]);
    // The dish form's choices brought the categories to this device, not the menu's own read of them.
    await keepList(categories, { limit: 100 }, [wire({ id: MAINS, menuId: MENU, position: 0, name: 'Mains', description: '' })]);
    const wireDish = (n: number, categoryId: string) =>
      wire({ id: uuid(n), menuId: MENU, position: n, name: `Dish ${n}`, description: '', price: 100, currency: 'EUR', categoryId, allergenIds: [], available: true, mediaId: null });
    await keepList(items, initialListQuery(items), [wireDish(1, MAINS), wireDish(2, STARTERS)]);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    await resourceStore.submit(categories, { kind: 'create', id: STARTERS, values: { name: 'Starters', description: '' } });

    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId">
        <GastroMenuView title={msg`Gastronomy menu`} />
      </Route>,
      resourceStore,
      { path: `/cms/${SITE}/gastromenu/${MENU}` },
    );

    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Mains', 'Starters']));
    const menuText = screen.getByRole('article').textContent!;
    expect(menuText.indexOf('Starters')).toBeLessThan(menuText.indexOf('Dish 2'));
  });
});

describe('menuLines', () => {
  it('leaves out empty categories and heads the dishes of none only when there are categories', () => {
    const categories = [row({ id: STARTERS, name: 'Starters' }), row({ id: MAINS, name: 'Mains' })];
    const lines = menuLines([dish(1, { categoryId: MAINS }), dish(2)], categories, 'More dishes');
    expect(lines.map((line) => (line.kind === 'category' ? `# ${line.name}` : line.row.name))).toEqual(['# Mains', 'Dish 1', '# More dishes', 'Dish 2']);
    expect(menuLines([dish(2)], [], 'More dishes').map((line) => line.kind)).toEqual(['dish']);
  });
});
