import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Suspense, useEffect, type ComponentType } from 'react';
import { parse as routeParser } from 'regexparam';
import { matchRoute, Redirect, Route, useLocation } from 'wouter';
import { ForgotPasswordPage } from '../views/auth/forgot-password-page';
import { LoginPage } from '../views/auth/login-page';
import { ResetPasswordPage } from '../views/auth/reset-password-page';
import { VerificationPage } from '../views/auth/verification-page';
import type { PageProps } from '../views/page';
import { useBranding } from '../api/branding';
import { CMS_SECTIONS, type SectionRoute } from '../views/cms-modules';
import { guard, type Access } from './guards';
import { loadAllMessages } from '../api/catalogs';
import { lazyScreen, type LazyScreen } from '../components/lazy-screen';
import { useScrollRestoration } from './scroll';
import { shownLocation } from './shown-location';
import { readPendingUser, readSession, isAuthenticated, useSession } from '../api/session';

// Signed-in screens load on demand: the sign-in route, the one every session starts on, stays
// small. The service worker precaches these chunks, so after the first visit nothing waits.
// The shell brings the signed-in screens' messages with it (ADR 014): the sign-in route loads only its own.
const Shell = lazyScreen(() => Promise.all([import('../views/shell/shell'), loadAllMessages()]).then(([m]) => m.Shell));
const ProfilePage = lazyScreen<PageProps>(() => import('../views/profile/profile-page').then((m) => m.ProfilePage));
const SettingsPage = lazyScreen<PageProps>(() => import('../views/admin/settings/settings-page').then((m) => m.SettingsPage));
const AllActivityPage = lazyScreen<PageProps>(() => import('../views/cms/activity').then((m) => m.AllActivityPage));
const AdminRecycleBinPage = lazyScreen<PageProps>(() => import('../views/cms/recycle-bin').then((m) => m.AdminRecycleBinPage));
const PlaceholderPage = lazyScreen<PageProps>(() => import('../views/placeholder/placeholder-page').then((m) => m.PlaceholderPage));

/** A file's pages, one chunk per file. */
type Pages<M> = { [K in keyof M]: M[K] extends ComponentType<PageProps> ? K : never }[keyof M];
const pagesOf =
  <M,>(load: () => Promise<M>) =>
  (name: Pages<M>) =>
    lazyScreen<PageProps>(() => load().then((m) => m[name] as ComponentType<PageProps>));
/** The admin catalogs, one chunk for all six (they share the resource screens). */
const catalog = pagesOf(() => import('../views/admin/catalogs'));
const HostingPage = catalog('HostingPage');
const TechnologiesPage = catalog('TechnologiesPage');
const TypesPage = catalog('TypesPage');
const CategoriesPage = catalog('CategoriesPage');
const SubcategoriesPage = catalog('SubcategoriesPage');
const CategorySubcategoriesPage = catalog('CategorySubcategoriesPage');
const LanguagesPage = catalog('LanguagesPage');
const LanguageNewPage = catalog('LanguageNewPage');
const LanguageEditPage = catalog('LanguageEditPage');

/** The services and their prices (spec §7 "Other"): the admin's list and form, and the owner's website form. */
const ServicesPage = lazyScreen<PageProps>(() => import('../views/admin/services').then((m) => m.ServicesPage));
const ServiceNewPage = lazyScreen<PageProps>(() => import('../views/admin/services').then((m) => m.ServiceNewPage));
const ServiceEditPage = lazyScreen<PageProps>(() => import('../views/admin/services').then((m) => m.ServiceEditPage));
const WebsitesFormPage = lazyScreen<PageProps>(() => import('../views/websites-form/websites-form-page').then((m) => m.WebsitesFormPage));

const accounts = pagesOf(() => import('../views/admin/accounts'));
const partnerPages = pagesOf(() => import('../views/partners/partners'));
const websitePages = pagesOf(() => import('../views/websites/websites'));
const DashboardPage = lazyScreen<PageProps>(() => import('../views/dashboard/dashboard-page').then((m) => m.DashboardPage));
const WebhooksPage = lazyScreen<PageProps>(() => import('../views/websites/webhooks').then((m) => m.WebhooksPage));
const WebsiteHomePage = lazyScreen<PageProps>(() => import('../views/websites/website-home').then((m) => m.WebsiteHomePage));
const SeoPage = lazyScreen<PageProps>(() => import('../views/cms/seo').then((m) => m.SeoPage));
const CmsDashboardPage = lazyScreen<PageProps>(() => import('../views/cms/cms-dashboard').then((m) => m.CmsDashboardPage));

/** A page that can start reading its data before it renders, from its route's parameters. */
interface Prefetching {
  prefetch(params: Readonly<Record<string, string | undefined>>): void;
}

export interface RouteEntry {
  path: string;
  access: Access;
  title: MessageDescriptor;
  /** Unset: the generic placeholder, until the release that builds the screen. */
  page?: ComponentType<PageProps> & Partial<Pick<LazyScreen<PageProps>, 'preload' | 'loaded'>>;
}

const route =
  (access: Access) =>
  (path: string, title: MessageDescriptor, page?: ComponentType<PageProps>): RouteEntry => ({ path, access, title, page });
const publicRoute = route('public');
const admin = route('admin');
const owner = route('owner');
const signedIn = route('signedIn');

/** Every route of spec §2, first match wins: fixed segments come before the `:id` beside them. */
export const routes: readonly RouteEntry[] = [
  publicRoute('/login', msg`Sign in`, LoginPage),
  publicRoute('/forgot-password', msg`Forgot password`, ForgotPasswordPage),
  publicRoute('/reset-password', msg`Reset password`, ResetPasswordPage),
  route('pending')('/verification', msg`Verification`, VerificationPage),

  admin('/', msg`Dashboard`, DashboardPage),
  admin('/admins', msg`Admins`, accounts('AdminsPage')),
  admin('/admins/new', msg`New admin`, accounts('AdminNewPage')),
  admin('/admins/edit/:id', msg`Edit admin`, accounts('AdminEditPage')),
  admin('/admins/:id', msg`Admin`, accounts('AdminPage')),
  admin('/users', msg`Users`, accounts('UsersPage')),
  admin('/users/new', msg`New user`, accounts('UserNewPage')),
  admin('/users/edit/:id', msg`Edit user`, accounts('UserEditPage')),
  admin('/users/:id', msg`User`, accounts('UserPage')),
  admin('/partners', msg`Partners`, partnerPages('PartnersPage')),
  admin('/partners/new', msg`New partner`, partnerPages('PartnerNewPage')),
  admin('/partners/manage/:id', msg`Manage partner`, partnerPages('PartnerManagePage')),
  admin('/websites/manage/:id', msg`Manage website`, websitePages('WebsiteManagePage')),
  admin('/websites/hosting', msg`Hosting`, HostingPage),
  admin('/websites/technologies', msg`Technologies`, TechnologiesPage),
  admin('/websites/types', msg`Website types`, TypesPage),
  admin('/websites/categories', msg`Categories`, CategoriesPage),
  admin('/websites/subcategories', msg`Subcategories`, SubcategoriesPage),
  admin('/websites/categories/:id/subcategories', msg`Subcategories of a category`, CategorySubcategoriesPage),
  admin('/languages', msg`Languages`, LanguagesPage),
  admin('/languages/new', msg`New language`, LanguageNewPage),
  admin('/languages/edit/:id', msg`Edit language`, LanguageEditPage),
  admin('/settings', msg`Settings`, SettingsPage),
  admin('/settings/services', msg`Services`, ServicesPage),
  admin('/settings/services/new', msg`New service`, ServiceNewPage),
  admin('/settings/services/edit/:id', msg`Edit service`, ServiceEditPage),
  admin('/recycle-bin', msg`Recycle bin`, AdminRecycleBinPage),
  admin('/activity', msg`Activity`, AllActivityPage),

  owner('/user/partners', msg`My partners`, partnerPages('MyPartnersPage')),
  owner('/user/websites', msg`My websites`, websitePages('MyWebsitesPage')),

  signedIn('/partners/edit/:id', msg`Edit partner`, partnerPages('PartnerEditPage')),
  signedIn('/partners/:id', msg`Partner`, partnerPages('PartnerPage')),
  signedIn('/websites', msg`Websites`, websitePages('WebsitesPage')),
  signedIn('/websites/new', msg`New website`, websitePages('WebsiteNewPage')),
  signedIn('/websites/edit/:id', msg`Edit website`, websitePages('WebsiteEditPage')),
  signedIn('/websites-form', msg`Website form`, WebsitesFormPage),
  signedIn('/profile', msg`Profile`, ProfilePage),
  signedIn('/websites/seo/:websiteId', msg`SEO`, SeoPage),
  signedIn('/websites/:websiteId/webhooks', msg`Webhooks`, WebhooksPage),
  // Spec §2: no guard of its own, only the global one, which asks for a verified session here too.
  signedIn('/websites/:id', msg`Website dashboard`, WebsiteHomePage),

  signedIn('/cms/:websiteId', msg`CMS dashboard`, CmsDashboardPage),
  // Every route under /cms/:websiteId is open to any signed-in user; each part's routes are its declaration's.
  ...CMS_SECTIONS.flatMap((section) => Object.values<SectionRoute>(section.routes).map(({ path, title, load }) => signedIn(path, title, lazyScreen(load)))),
];

/** Spec §2: an unknown path sends a signed-in user home, anyone else to /login. */
const unknownRoute: RouteEntry = { path: '*', access: 'unknown', title: msg`Page not found` };

/** The route a path opens; patterns are read as wouter reads them by default (regexparam). */
export function findRoute(path: string): RouteEntry {
  return routes.find((entry) => matchRoute(routeParser, entry.path, path)[0]) ?? unknownRoute;
}

const isBare = (entry: RouteEntry) => entry.access === 'public' || entry.access === 'pending';

/** What a route renders around and in itself: the shell and the page, or nothing to load for a bare page. */
function screensOf(entry: RouteEntry): Partial<Pick<LazyScreen<PageProps>, 'preload' | 'loaded'>>[] {
  return isBare(entry) ? [] : [Shell, entry.page ?? PlaceholderPage];
}

/** The route a path leads to as the session stands (after its guard), with its parameters. */
function destination(path: string): { entry: RouteEntry; params: Record<string, string | undefined> } {
  const to = guard(findRoute(path).access, path, { user: readSession().user, authenticated: isAuthenticated(), pending: readPendingUser() !== null });
  const entry = findRoute(to ?? path);
  return { entry, params: matchRoute(routeParser, entry.path, to ?? path)[1] ?? {} };
}

/**
 * Loads the chunks the path will show (after its guard), all at once: the app's first render then
 * finds the shell and the page loaded, instead of loading one after the other behind fallbacks.
 */
export function preloadPath(path: string, languageReady: Promise<unknown>): Promise<unknown> {
  const { entry, params } = destination(path);
  // A page that reads data starts it as soon as its code is in (and its messages, for a failure's
  // words), not after React has rendered. A chunk that fails to load fails again where it
  // renders, with the app there to show it.
  return Promise.all(
    screensOf(entry).map((screen) =>
      screen
        .preload?.()
        .then(async (loaded) => {
          await languageReady;
          (loaded as Partial<Prefetching>).prefetch?.(params);
        })
        .catch(() => undefined),
    ),
  );
}

/** The app's navigation waits for this before it shows a path (shown-location.ts): null once its screens are in. */
export function whenShowable(path: string): Promise<unknown> | null {
  const loading = screensOf(destination(path).entry).filter((screen) => screen.loaded?.() === false);
  return loading.length === 0 ? null : Promise.all(loading.map((screen) => screen.preload?.()));
}

/** The app's location (its Router's hook): a path shows once its screens are in. */
const shown = shownLocation(whenShowable);
export const appLocation = shown.hook;

/** "Page · Brand" inside the shell; the bare sign-in pages carry the brand alone. */
function useDocumentTitle(entry: RouteEntry) {
  const { i18n } = useLingui();
  const cmsName = useBranding()?.cmsName;
  const title = cmsName && (isBare(entry) ? cmsName : `${i18n._(entry.title)} · ${cmsName}`);

  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

export function AppRoutes() {
  const [path] = useLocation();
  const { user, authenticated } = useSession();
  const navigating = shown.useNavigating();
  const entry = findRoute(path);
  useScrollRestoration();
  useDocumentTitle(entry);

  const to = guard(entry.access, path, { user, authenticated, pending: readPendingUser() !== null });
  if (to) return <Redirect to={to} replace />;

  // Shell and page load side by side: waiting for the shell before asking for the page costs a round trip.
  for (const screen of screensOf(entry)) void screen.preload?.();
  const Page = entry.page;
  // The key remounts the page per route pattern, while the shell around it stays mounted.
  const page = (
    <Route key={entry.path} path={entry.path}>
      {Page ? <Page title={entry.title} /> : <PlaceholderPage title={entry.title} />}
    </Route>
  );
  // A page still loading leaves the shell around it on screen.
  return isBare(entry) ? (
    page
  ) : (
    <Suspense fallback={null}>
      <Shell navigating={navigating}>
        <Suspense fallback={null}>{page}</Suspense>
      </Shell>
    </Suspense>
  );
}
