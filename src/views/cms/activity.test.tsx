import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activity } from '../../contract/resources/activity';
import { toast } from '../../machines/feedback';
import { sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { registerScreens } from '../resource/screen-registry';
import { ResourceListPage } from '../resource/resource-list-page';
import { activityScreen } from './activity';
import { itemsScreen } from './gastro';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const PAULA = '0190a1b2-0000-7000-8000-0000000000b1';
const ANNA = '0190a1b2-0000-7000-8000-0000000000b2';
const DISH = '0190a1b2-0000-7000-8000-0000000000d1';

vi.mock('../../api/action', () => ({
  call: vi.fn(async () => ({
    data: [
      { _id: ANNA, name: 'Anna Owner' },
      { _id: PAULA, name: 'Paula Partner' },
    ],
  })),
}));

const change = (fields: Record<string, unknown>) =>
  row({ entry: 'gastroItems', module: 'gastro', title: 'Pizza Margherita', recordId: DISH, actorKind: 'user', device: 'Chrome · Android', action: 'update', changes: [], ...fields });

const seed = () => ({
  activity: [
    change({ id: 'r3', createdAt: '2026-11-20T15:30:00Z', actorId: PAULA, actorName: 'Paula Partner', changes: [{ field: 'price', before: 950, after: 990 }, { field: 'menu_internal', before: 'x', after: 'y' }] }),
    change({ id: 'r4', createdAt: '2026-11-20T12:00:00Z', actorId: ANNA, actorName: 'Anna Owner', title: 'Rösti', changes: [{ field: 'price', before: 1800, after: 1950 }], values: { name: 'Rösti', currency: 'CHF' } }),
    change({ id: 'r2', createdAt: '2026-11-19T09:00:00Z', actorId: ANNA, actorName: 'Anna Owner', changes: [{ field: 'available', before: true, after: false }] }),
    change({ id: 'r1', createdAt: '2026-11-18T08:00:00Z', actorId: ANNA, actorName: 'Anna Owner', action: 'create' }),
  ],
});

function renderLog() {
  const { store, spies } = fakeStore(seed());
  renderResourceScreen(
    <Route path="/cms/:websiteId/activity">
      <ResourceListPage screen={activityScreen} title={{ id: 'Activity', message: 'Activity' }} />
    </Route>,
    store,
    { path: `/cms/${SITE}/activity`, user: sessionUser({ type: 'user', role: null }) },
  );
  const queries = () => spies.fetchList.mock.calls.filter(([resource]) => resource.name === activity.name).map(([, query]) => query);
  return { spies, queries };
}

beforeEach(() => {
  localStorage.clear();
  registerScreens(itemsScreen);
  vi.spyOn(toast, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('the activity log', () => {
  it('lists who did what, where, to which record and what changed, in words, newest first', async () => {
    const { queries } = renderLog();
    const partner = await screen.findByRole('row', { name: /Paula Partner/ });
    // A log is only read: no Add, no Edit, no Delete.
    expect(screen.queryAllByRole('button', { name: /^(Add|Edit|Delete) / })).toEqual([]);
    expect(screen.queryByRole('link', { name: /^Add / })).toBeNull();
    expect(queries()[0]).toMatchObject({ sortBy: 'createdAt', sortOrder: 'desc' });
    const cells = within(partner).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(expect.arrayContaining(['Paula Partner · Chrome · Android', 'Changed', 'Gastronomy menus', 'Pizza Margherita']));
    // A price in euros, yes and no in words; a column no screen shows is not named at all.
    await waitFor(() => expect(within(partner).getByText('Price: €9.50 → €9.90')).toBeDefined());
    expect(within(screen.getByRole('row', { name: /Anna Owner.*Changed.*Pizza Margherita/ })).getByText('Available: Yes → No')).toBeDefined();
    // A record in another currency: its own, not euros.
    expect(within(screen.getByRole('row', { name: /Rösti/ })).getByText('Price: CHF 18.00 → CHF 19.50')).toBeDefined();
    expect(screen.getByRole('row', { name: /Created/ })).toBeDefined();
    const shown = document.body.textContent ?? '';
    for (const hidden of [PAULA, ANNA, DISH, 'gastroItems', 'menu_internal', '990', 'gastro ']) expect(shown).not.toContain(hidden);
  });

  it('filters by person, module, action and a range of days', async () => {
    const { queries } = renderLog();
    await screen.findByRole('row', { name: /Paula Partner/ });
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));

    fireEvent.click(screen.getByRole('button', { name: 'Person All' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Paula Partner' }));
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ actorId: PAULA }));

    fireEvent.click(screen.getByRole('button', { name: 'Module All' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Gastronomy menus' }));
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ actorId: PAULA, module: 'gastro' }));

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(queries().at(-1)).toHaveProperty('to'));
    const { from, to } = queries().at(-1) as unknown as { from: string; to: string };
    // The day's start and end where the device is.
    expect(new Date(from).getTime()).toBe(new Date('2026-11-20T00:00:00').getTime());
    expect(new Date(to).getTime()).toBe(new Date('2026-11-20T23:59:59.999').getTime());
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-20');

    fireEvent.click(screen.getByRole('button', { name: 'Clear From' }));
    await waitFor(() => expect(queries().at(-1)).not.toHaveProperty('from'));
  });
});
