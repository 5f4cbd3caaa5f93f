import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, sessionUser } from '../views/render-screen.test-support';
import { BrandingProvider } from '../api/branding';
import { Router } from 'wouter';
import { AppRoutes, appLocation, preloadPath } from './routes';
import { clearSession, type SessionUser } from '../api/session';
import { db } from '../db/database';

vi.mock('../machines/auth', () => ({
  useAuth: () => ({ status: 'idle', error: null, fieldErrors: {}, resetEmail: null, cancel: () => {}, logout: async () => {} }),
}));
vi.mock('../components/language-switcher', () => ({ LanguageSwitcher: () => null }));

const SITE = '0190a1b2-0000-7000-8000-000000000001';
const fetchMock = vi.fn<typeof fetch>();
/** What every other call hears: a list of one partner record (`/api/partners/my-partners`: the partner's Settings). */
const partnerRecord = { _id: '0190a1b2-0000-7000-8000-0000000000b1', version: 1, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-01T10:00:00Z', name: 'Partner', ownerId: '0190a1b2-0000-7000-8000-0000000000c1' };
const listCalls = () => fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/categories?'));
const statsCalls = () => fetchMock.mock.calls.filter(([input]) => String(input) === '/api/users/stats');

beforeEach(() => {
  localStorage.clear();
  document.title = '';
  fetchMock.mockReset().mockImplementation(async (input) =>
    String(input) === '/api/white-label/config'
      ? new Response(JSON.stringify({ success: true, data: { cmsName: 'Acme CMS', cmsLogoUrl: null } }))
      : new Response(JSON.stringify({ success: true, data: [partnerRecord] })),
  );
  vi.stubGlobal('fetch', fetchMock);
});

/** The app's routes at `path`, as the app renders them. */
const renderApp = (path: string) =>
  renderScreen(
    <BrandingProvider>
      <AppRoutes />
    </BrandingProvider>,
    { path },
  );

/** A session as the app keeps it between starts. */
function signIn(user: SessionUser) {
  localStorage.setItem('auth_token', 'token');
  localStorage.setItem('auth_user', JSON.stringify(user));
}

/** The page at `path` rendered after its reads were started ahead, once it has settled. */
async function openSettled(path: string, heading: string) {
  renderApp(path);
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeDefined();
  await waitFor(() => expect(screen.queryByRole('status', { busy: true })).toBeNull());
}

/** Rendered in an awaited act: a screen whose chunk is still loading suspends, and React retries it only there. */
async function open(path: string, user?: SessionUser) {
  if (user) signIn(user);
  let rendered: ReturnType<typeof renderScreen> | undefined;
  await act(async () => {
    rendered = renderApp(path);
  });
  return rendered!;
}

describe('AppRoutes', () => {
  // First in the file: no other test has loaded the shell's or the profile's chunk yet.
  it('renders a preloaded path in its first render, shell and page together', async () => {
    signIn(sessionUser());
    await preloadPath('/profile', Promise.resolve());

    // Not in an awaited act: had anything suspended, nothing would be on screen yet.
    renderApp('/profile');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeDefined();
  });

  it('asks for a list page’s first rows while the app loads, before anything renders', async () => {
    signIn(sessionUser());
    let languageReady!: () => void;
    const loading = preloadPath('/websites/categories', new Promise<void>((resolve) => (languageReady = resolve)));
    // The words of a failure are the catalog's: nothing is asked before it is in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listCalls()).toHaveLength(0);
    languageReady();
    await loading;
    expect(listCalls().map(([input]) => String(input))).toEqual(['/api/categories?page=1&limit=10&sortBy=name&sortOrder=asc']);

    // The page takes that request instead of making its own.
    await openSettled('/websites/categories', 'Categories');
    expect(listCalls()).toHaveLength(1);
  });

  it('asks for a list’s figures while the app loads; the page takes them', async () => {
    signIn(sessionUser());
    await preloadPath('/users', Promise.resolve());
    expect(statsCalls()).toHaveLength(1);

    await openSettled('/users', 'Users');
    expect(statsCalls()).toHaveLength(1);
  });

  it('asks for the dashboard’s figures and latest changes while the app loads; the page takes them', async () => {
    signIn(sessionUser());
    const areas = ['websites', 'users', 'partners', 'admins'];
    const reads = () =>
      fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => areas.some((area) => url.startsWith(`/api/${area}/stats`) || url.startsWith(`/api/${area}?`)));
    await preloadPath('/', Promise.resolve());
    const early = reads();
    expect(early.toSorted()).toEqual(
      areas.flatMap((area) => [`/api/${area}/stats`, `/api/${area}?page=1&limit=5&sortBy=updatedAt&sortOrder=desc`]).toSorted(),
    );

    renderApp('/');
    expect(await screen.findByRole('heading', { level: 2, name: 'Partners' })).toBeDefined();
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
    expect(reads()).toEqual(early);
  });

  it('shows the dashboard’s figures and latest changes that came in before its first render in that render', async () => {
    signIn(sessionUser());
    const figures = { total: 7, recent: 2, by: { status: {} } };
    fetchMock.mockImplementation(async (input) =>
      new Response(JSON.stringify({ success: true, data: String(input).endsWith('/stats') ? figures : [partnerRecord], pagination: { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 5 } })),
    );
    await preloadPath('/', Promise.resolve());
    // Answered: each area's page is on the device (a page of a few rows is kept before it is answered).
    await waitFor(async () => expect(await db.cache.count()).toBe(4));
    await new Promise((resolve) => setTimeout(resolve, 0));

    renderApp('/');
    // Synchronously after the first render: every area's figures and its latest change, no "Loading…".
    expect(screen.getAllByText('Total')).toHaveLength(4);
    expect(screen.getAllByText('7')).toHaveLength(4);
    expect(screen.getAllByRole('link', { name: 'Partner' })).toHaveLength(2);
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it.each([
    ['an anonymous visitor', '/users', undefined, '/login'],
    ['an anonymous visitor', '/cms/w1/pages', undefined, '/login'],
    ['an anonymous visitor', '/verification', undefined, '/login'],
    ['an unverified user', '/profile', sessionUser({ verified: false }), '/login'],
    ['an admin', '/login', sessionUser(), '/'],
    ['an admin', '/register', sessionUser(), '/'],
    ['an admin', '/no/such/page', sessionUser(), '/'],
    ['an owner', '/users', sessionUser({ type: 'user', role: null }), '/user/websites'],
    ['a team member', '/user/websites', sessionUser({ type: 'teammember', role: 'Editor', websiteId: SITE }), `/websites/${SITE}`],
  ])('sends %s from %s to %s', async (_who, from, user, to) => {
    const { path } = await open(from, user);
    expect(path()).toBe(to);
  });

  it('shows the PIN step while a sign-in is pending', async () => {
    localStorage.setItem('pendingUser', JSON.stringify({ emailOrUsername: 'anna' }));
    const { path } = await open('/verification');

    expect(path()).toBe('/verification');
    expect(screen.getByRole('heading', { level: 2, name: 'Enter your PIN' })).toBeDefined();
  });

  it('shows a CMS screen, titled, inside the shell', async () => {
    await open('/cms/w1/forms', sessionUser());

    // The shell is a lazy chunk: the first render suspends until it has loaded.
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact forms' }, { timeout: 5000 })).toBeDefined();
    expect(screen.queryByText('This screen is coming soon.')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Contact form section' })).toBeDefined();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeDefined();
    await waitFor(() => expect(document.title).toBe('Contact forms · Acme CMS'));
  });

  it('shows the sign-in pages bare, titled with the brand alone', async () => {
    await open('/login');

    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme CMS' })).toBeDefined();
    expect(document.title).toBe('Acme CMS');
  });

  it('keeps the shell mounted from page to page', async () => {
    const { navigate } = await open('/user/websites', sessionUser({ type: 'partner', role: null }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Settings' })).toBeDefined());
    act(() => navigate('/profile'));
    act(() => navigate('/user/partners'));

    expect(fetchMock.mock.calls.filter(([input]) => String(input) === '/api/partners/my-partners')).toHaveLength(1);
  });

  it('opens an admin catalog in the shell, its page chunk loaded on demand, titled by its route', async () => {
    await open(`/websites/categories/${SITE}/subcategories`, sessionUser());

    expect(await screen.findByRole('heading', { level: 1, name: 'Subcategories of a category' }, { timeout: 5000 })).toBeDefined();
    // The back link, and the website section's tab, which counts a category's subcategories as its own.
    const categories = screen.getAllByRole('link', { name: 'Categories' });
    expect(categories.map((link) => link.getAttribute('href'))).toEqual(['/websites/categories', '/websites/categories']);
    expect(categories.filter((link) => link.getAttribute('aria-current') === 'page')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Add subcategory' })).toBeDefined();
    await waitFor(() => expect(fetchMock.mock.calls.some(([input]) => String(input).startsWith(`/api/subcategories?`) && String(input).includes(SITE))).toBe(true));
  });

  it('leads an admin from /websites to the catalogs, and shows other users no links they may not follow', async () => {
    await open('/websites', sessionUser());
    const tabs = await screen.findByRole('navigation', { name: 'Website section' }, { timeout: 5000 });
    expect(Array.from(tabs.querySelectorAll('a'), (link) => link.getAttribute('href'))).toEqual([
      '/websites',
      '/websites/categories',
      '/websites/subcategories',
      '/websites/types',
      '/websites/technologies',
      '/websites/hosting',
    ]);
  });

  it('shows an owner on /websites no catalog tabs', async () => {
    await open('/websites', sessionUser({ type: 'user', role: null }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Websites' }, { timeout: 5000 })).toBeDefined();
    expect(screen.queryByRole('navigation', { name: 'Website section' })).toBeNull();
  });

  it('sends the user to /login when the session ends elsewhere', async () => {
    const { path } = await open('/users', sessionUser());
    act(() => clearSession());
    expect(path()).toBe('/login');
  });

  it('keeps the screen on view, busy and inert, until the next one has loaded, in the app’s own navigation', async () => {
    signIn(sessionUser());
    await preloadPath('/profile', Promise.resolve());
    act(() => history.replaceState(null, '', '/profile'));
    renderScreen(
      <BrandingProvider>
        <Router hook={appLocation}>
          <AppRoutes />
        </Router>
      </BrandingProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeDefined();

    // A screen no test here has opened: its chunk is still to load.
    act(() => history.pushState(null, '', '/activity'));
    const main = screen.getByRole('main');
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeDefined();
    expect([main.getAttribute('aria-busy'), main.hasAttribute('inert')]).toEqual(['true', true]);

    expect(await screen.findByRole('heading', { level: 1, name: 'Activity' }, { timeout: 5000 })).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1, name: 'Profile' })).toBeNull();
    expect([main.hasAttribute('aria-busy'), main.hasAttribute('inert')]).toEqual([false, false]);
  });
});
