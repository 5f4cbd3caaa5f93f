import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandingProvider } from '../../api/branding';
import { updateStoredUser, type SessionUser } from '../../api/session';
import type { RoleInfo } from '../../contract/permissions';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { useListControls } from './list-controls';
import { Shell } from './shell';

const mocks = vi.hoisted(() => ({ logout: vi.fn<() => Promise<void>>() }));
vi.mock('../../machines/auth', () => ({ useAuth: () => ({ logout: mocks.logout }) }));
// The switcher has its own tests; here it would only add its requests.
vi.mock('../../components/language-switcher', () => ({ LanguageSwitcher: () => null }));

const SITE = '0190a1b2-0000-7000-8000-000000000001';
const fetchMock = vi.fn<typeof fetch>();
let myPartners: () => Response;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

beforeEach(() => {
  localStorage.clear();
  mocks.logout.mockReset().mockResolvedValue(undefined);
  myPartners = () => json({ success: true, data: [] });
  fetchMock.mockReset().mockImplementation(async (input) => {
    if (String(input) === '/api/partners/my-partners') return myPartners();
    return json({ success: true, data: { cmsName: 'Acme CMS', cmsLogoUrl: '/acme.png' } });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  document.body.style.overflow = '';
});

function signIn(user: SessionUser) {
  localStorage.setItem('auth_token', 'token');
  localStorage.setItem('auth_user', JSON.stringify(user));
}

function renderShell(user: SessionUser, path = '/', page = <h1>Page</h1>, navigating = false) {
  signIn(user);
  return renderScreen(
    <BrandingProvider>
      <Shell navigating={navigating}>{page}</Shell>
    </BrandingProvider>,
    { path },
  );
}

const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('link')
    .map((link) => `${link.textContent} ${link.getAttribute('href')}`);

const toggle = () => screen.getByRole('button', { name: 'Menu' });
const overlay = () => screen.queryByTestId('sidebar-overlay');
const menuButton = () => screen.getByRole('button', { name: 'Account menu' });

const role = (flags: Partial<RoleInfo['permissions']>): RoleInfo => ({
  permissions: { cms: false, seo: false, team: false, settings: false, ...flags },
  cmsPermissions: {},
});

/** A list screen as the next release builds them: it owns search and filters and lends them to the header. */
function ListScreen() {
  const [search, setSearch] = useState('');
  const [values, setValues] = useState<Record<string, string | undefined>>({});
  useListControls({
    search,
    onSearch: setSearch,
    filters: [{ key: 'status', label: 'Status', options: [{ value: 'draft', label: 'Draft' }, { value: 'live', label: 'Published' }] }],
    values,
    onFilter: (key, value) => setValues({ ...values, [key]: value ?? undefined }),
  });
  return <output>{`${search}|${values.status ?? ''}`}</output>;
}

describe('Shell', () => {
  it('brands sidebar and footer with the white-label name and logo', async () => {
    const { container } = renderShell(sessionUser());

    expect(await within(container.querySelector('#sidebar')!).findByText('Acme CMS')).toBeDefined();
    expect(container.querySelector('#sidebar img')?.getAttribute('src')).toBe('/acme.png');
    // The header's brand is for phones, where the sidebar is away: the logo, named for screen readers.
    expect(screen.getByRole('banner').querySelector('img')?.getAttribute('alt')).toBe('Acme CMS');
    expect(screen.getByRole('contentinfo').textContent).toContain(`© ${new Date().getFullYear()} Acme CMS`);
  });

  it('leaves the screen on view busy and inert while the next one loads, the header and sidebar in reach', () => {
    renderShell(sessionUser(), '/', <input aria-label="Name" />, true);
    const main = screen.getByRole('main');
    expect([main.getAttribute('aria-busy'), main.hasAttribute('inert')]).toEqual(['true', true]);
    expect(screen.getByRole('button', { name: 'Menu' }).closest('[inert]')).toBeNull();
  });

  it('gives an admin the admin sidebar and marks the section on show', () => {
    renderShell(sessionUser(), '/users/edit/1');

    expect(navLinks()).toEqual(['Dashboard /', 'Users /users', 'Partners /partners', 'Websites /websites', 'Languages /languages', 'Admins /admins', 'Recycle bin /recycle-bin', 'Activity /activity']);
    expect(screen.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Dashboard' }).hasAttribute('aria-current')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalledWith('/api/partners/my-partners', expect.anything());
  });

  it('gives a team member the links of their role', () => {
    renderShell(sessionUser({ type: 'teammember', role: 'Editor', websiteId: SITE, roleInfo: role({ cms: true, settings: true }) }));
    expect(navLinks()).toEqual([`Dashboard /websites/${SITE}`, `CMS /cms/${SITE}`, `Settings /websites/edit/${SITE}`]);
  });

  it('opens the one partner record of a partner as Settings', async () => {
    const record = '0190a1b2-0000-7000-8000-0000000000b1';
    const stamps = { version: 1, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-01T10:00:00Z' };
    myPartners = () => json({ success: true, data: [{ _id: record, ...stamps, name: 'Only', type: 'agency', ownerId: '0190a1b2-0000-7000-8000-0000000000c1' }] });
    renderShell(sessionUser({ type: 'partner', role: null }));

    await waitFor(() => expect(navLinks()).toEqual(['Websites /user/websites', `Settings /partners/${record}`]));
  });

  it('keeps the partners list when the partner records cannot be loaded', async () => {
    myPartners = () => json({ success: false, message: 'Not found' }, 404);
    renderShell(sessionUser({ type: 'partner', role: null }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/partners/my-partners', expect.anything()));
    expect(navLinks()).toEqual(['Websites /user/websites', 'Partners /user/partners']);
  });

  describe('the phone sidebar', () => {
    it('opens over an overlay, locks page scroll and closes on Escape', () => {
      renderShell(sessionUser());
      fireEvent.click(toggle());

      expect(toggle().getAttribute('aria-expanded')).toBe('true');
      expect(overlay()).not.toBeNull();
      expect(document.body.style.overflow).toBe('hidden');
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close menu' }));

      fireEvent.keyDown(document, { key: 'Escape' });
      expect(toggle().getAttribute('aria-expanded')).toBe('false');
      expect(overlay()).toBeNull();
      expect(document.body.style.overflow).toBe('');
    });

    it('closes on an overlay click, the close button and navigation', () => {
      const { navigate } = renderShell(sessionUser());
      fireEvent.click(toggle());
      fireEvent.click(overlay()!);
      expect(overlay()).toBeNull();

      fireEvent.click(toggle());
      fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
      expect(overlay()).toBeNull();

      fireEvent.click(toggle());
      act(() => navigate('/users'));
      expect(overlay()).toBeNull();
      expect(document.body.style.overflow).toBe('');
    });
  });

  describe('the user menu', () => {
    it('shows the initials and follows changes to the stored user', () => {
      renderShell(sessionUser());
      expect(menuButton().textContent).toBe('AB');

      act(() => updateStoredUser(sessionUser({ firstName: '', lastName: '' })));
      expect(menuButton().textContent).toBe('U');
    });

    it('links to the profile', () => {
      const { path } = renderShell(sessionUser());
      fireEvent.click(menuButton());
      fireEvent.click(screen.getByRole('link', { name: 'Profile' }));
      expect(path()).toBe('/profile');
    });

    it('goes to /login after logout, even when logout fails', async () => {
      mocks.logout.mockRejectedValue(new Error('offline'));
      const { path } = renderShell(sessionUser());
      fireEvent.click(menuButton());
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

      await waitFor(() => expect(path()).toBe('/login'));
      expect(mocks.logout).toHaveBeenCalledOnce();
    });
  });

  describe('search and filters', () => {
    it('say so when the screen has none', () => {
      renderShell(sessionUser());
      expect(screen.getAllByRole('combobox', { name: 'Search' })[0]?.hasAttribute('disabled')).toBe(true);

      fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
      expect(screen.getByText('No filters available')).toBeDefined();
    });

    it('drive the filters and the search of the screen on show', () => {
      const { container } = renderShell(sessionUser(), '/users', <ListScreen />);
      const search = screen.getAllByRole('combobox', { name: 'Search' })[0]!;
      fireEvent.change(search, { target: { value: 'pub' } });
      expect(screen.getByRole('option').textContent).toBe('Published');
      fireEvent.click(screen.getByRole('option'));
      expect(container.querySelector('output')?.textContent).toBe('Published|');

      fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
      fireEvent.click(screen.getByRole('button', { name: 'Status All' }));
      fireEvent.click(screen.getByRole('button', { name: 'Draft' }));
      expect(container.querySelector('output')?.textContent).toBe('Published|draft');
      expect(screen.getByRole('button', { name: 'Filters (active)' })).toBeDefined();
    });

    it('keep one popup open at a time', () => {
      renderShell(sessionUser());
      fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
      fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));

      expect(screen.getByRole('button', { name: 'Filters' }).getAttribute('aria-expanded')).toBe('false');
      expect(screen.getByRole('button', { name: 'Account menu' }).getAttribute('aria-expanded')).toBe('true');
    });
  });
});
