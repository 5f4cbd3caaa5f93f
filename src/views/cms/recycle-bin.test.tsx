import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import { sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { ResourceListPage } from '../resource/resource-list-page';
import { recycleBinScreen } from './recycle-bin';

const SITE = '0190a1b2-0000-7000-8000-00000000b1e1';
const MENU_ENTRY = '0190a1b2-0000-7000-8000-0000000000c1';
const PAGE_ENTRY = '0190a1b2-0000-7000-8000-0000000000c2';

const entries = [
  row({ id: MENU_ENTRY, resource: 'gastroMenus', title: 'Summer card', actorName: 'Anna Owner', children: 5, createdAt: '2026-11-20T10:00:00Z', name: 'Summer card' }),
  row({ id: PAGE_ENTRY, resource: 'pages', title: 'About', actorName: 'Anna Owner', children: 0, createdAt: '2026-11-21T10:00:00Z', name: 'About' }),
];

function renderBin(user = sessionUser({ type: 'user', role: null })) {
  const { store, spies } = fakeStore({ recycleBin: entries });
  renderResourceScreen(
    <Route path="/cms/:websiteId/recycle-bin">
      <ResourceListPage screen={recycleBinScreen} title={msg`Recycle bin`} />
    </Route>,
    store,
    { path: `/cms/${SITE}/recycle-bin`, user },
  );
  return spies;
}

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the recycle bin screen', () => {
  it('names each deleted record by its noun, title, who and how much went with it — never an id or an entry’s name', async () => {
    renderBin();
    const menuRow = (await screen.findByText('Summer card')).closest('tr, li, article') as HTMLElement;
    // Nothing is made in a bin: the list offers no Add.
    expect(screen.queryByRole('button', { name: /^Add / })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Add / })).toBeNull();
    expect(within(menuRow).getByText('Food menu')).toBeTruthy();
    expect(within(menuRow).getByText('5 more records')).toBeTruthy();
    expect(within(menuRow).getByText('Anna Owner')).toBeTruthy();
    expect(screen.getByText('nothing else')).toBeTruthy();
    expect(document.body.textContent).not.toContain('gastroMenus');
    expect(document.body.textContent).not.toContain(MENU_ENTRY);
    expect(screen.getByRole('button', { name: 'Restore Summer card' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Summer card permanently' })).toBeTruthy();
  });

  it('restores through the action and says so with the server’s words; the list is read again', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ success: true, data: { resource: 'gastroMenus', recordId: '0190a1b2-0000-7000-8000-0000000000d1', restored: 6 }, message: 'Summer card restored' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const spies = renderBin();
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Summer card' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Summer card restored'));
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain(`/api/websites/${SITE}/recycle-bin/${MENU_ENTRY}/restore`);
    await waitFor(() => expect(spies.fetchList.mock.calls.length).toBeGreaterThan(1));
  });

  it('offers a team member who only views the food menus neither Restore nor Delete permanently', async () => {
    renderBin(sessionUser({ type: 'teammember', role: 'Viewer', websiteId: SITE, roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: 'view' } } }));
    await screen.findByText('Summer card');
    expect(screen.queryByRole('button', { name: 'Restore Summer card' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Summer card permanently' })).toBeNull();
  });
});
