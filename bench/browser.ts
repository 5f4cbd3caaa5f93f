import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { toSessionUser } from '../src/api/user';
import { buildApp } from '../src/server/app';
import { firstStart } from '../src/server/store/first-start';
import { openStore, type Store } from '../src/server/store/open';
import { gastroCategories, gastroItems, gastroMenus, websites } from '../src/server/store/schema';
import { memoryMailer, testAppConfig } from '../tests/support/app';
import { tokenFor } from '../tests/support/auth';
import { chromiumLaunchOptions } from '../tests/support/chromium';
import { createPgDatabase } from '../tests/support/store';
import { seedUser } from '../tests/support/users';

const root = join(import.meta.dirname, '..');
const APP_DIR = join(root, 'dist/client');
const FLOOR_DIR = join(root, '.tmp/bench/floor');

/** The phone: a mid-range CPU (4× slower) on a poor mobile link. */
export const PHONE = { latencyMs: 150, downloadBytesPerSecond: 1_600_000 / 8, uploadBytesPerSecond: 750_000 / 8, cpuSlowdown: 4 };
export type Profile = 'loopback' | 'phone';

const DESKTOP = { width: 1280, height: 800 };

/** What "visible" means for a measurement: an element, optionally holding a text, or a field holding a value it can be typed into. */
interface Marker {
  selector: string;
  text?: string;
  value?: string;
}

export interface Visit {
  /** From the navigation's start until the marker is in the document. */
  visibleMs: number;
  /** JS and CSS bodies as transferred (compressed), all the page fetched. */
  jsCssBytes: number;
}

/** Builds the floor pages with the same Vite and compression as the app. */
export function buildFloor(): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'bench/floor/vite.config.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (result.status !== 0) throw new Error('building the floor pages failed');
}

function* builtFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* builtFiles(path);
    else if (/\.(?:js|css)$/.test(entry)) yield path;
  }
}

/** Every JS and CSS file of a build as a browser that accepts brotli receives it. */
export function allRoutesBytes(dir: string): number {
  let total = 0;
  for (const path of builtFiles(join(dir, 'assets'))) {
    const plain = readFileSync(path);
    total += Math.min(plain.length, brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
  }
  return total;
}

async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downloadBytesPerSecond,
    uploadThroughput: PHONE.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
}

/**
 * Notes, in the page's own clock, the moment the marker first appears in the document. A string,
 * not a function: the TypeScript loader this runs under decorates named functions with a helper
 * the page does not have.
 */
function watch(context: BrowserContext, { selector, text = '', value }: Marker): Promise<unknown> {
  // A field is filled by a property, seen as its attribute (React keeps both) or its enabling.
  return context.addInitScript(`{
    const selector = ${JSON.stringify(selector)}, text = ${JSON.stringify(text)}, value = ${JSON.stringify(value ?? null)};
    const observer = new MutationObserver(() => {
      for (const element of document.querySelectorAll(selector)) {
        if (text && !(element.textContent || '').includes(text)) continue;
        // Ready to type: filled, enabled, and not a picture of the screen painted before the app (public/snapshot.js).
        if (value !== null && (element.value !== value || element.disabled || element.readOnly || element.closest('[inert]'))) continue;
        window.visibleAt = performance.now();
        observer.disconnect();
        return;
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: value !== null, attributeFilter: value !== null ? ['value', 'disabled', 'readonly'] : undefined });
  }`);
}

async function visit(page: Page, url: string, { bytes }: { bytes: boolean }): Promise<Visit> {
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  const handle = await page.waitForFunction(() => (window as unknown as { visibleAt?: number }).visibleAt, null, { timeout: 60_000 });
  const visibleMs = (await handle.jsonValue()) as number;
  let jsCssBytes = 0;
  if (bytes) {
    // Whatever the route loads after its first paint (lazy chunks, the update prompt) is the route's too.
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    jsCssBytes = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => /\.(?:js|css)(?:\?|$)/.test(entry.name))
        .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
    );
  }
  return { visibleMs, jsCssBytes };
}

export interface Scenario {
  url: string;
  marker: Marker;
  /** The page installs a service worker (the app does; the floor pages do not). */
  worker?: boolean;
  /** Run in every new context before the page's own scripts (a stored session). */
  prepare?: (context: BrowserContext) => Promise<unknown>;
}

/** A new profile as the scenario wants it (a stored session), watching for its marker. */
async function prepare(context: BrowserContext, scenario: Scenario): Promise<void> {
  await scenario.prepare?.(context);
  await watch(context, scenario.marker);
}

/**
 * A first visit: a new profile, nothing cached, no service worker yet. Its bytes are counted (on
 * loopback) only when asked for: that waits for the network to be idle, which the app's event
 * stream never is, so it costs the wait's whole timeout.
 */
export async function cold(browser: Browser, scenario: Scenario, profile: Profile, { bytes = false } = {}): Promise<Visit> {
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    await prepare(context, scenario);
    const page = await context.newPage();
    if (profile === 'phone') await throttle(page);
    return await visit(page, scenario.url, { bytes: bytes && profile === 'loopback' });
  } finally {
    await context.close();
  }
}

/**
 * Opened again: a first visit installs the service worker and fills the caches (Dexie included),
 * then a new page opens the same URL, as a person reopening the installed app.
 */
export async function warm(browser: Browser, scenario: Scenario, profile: Profile): Promise<Visit> {
  const context = await browser.newContext({ viewport: DESKTOP });
  try {
    await prepare(context, scenario);
    const first = await context.newPage();
    await visit(first, scenario.url, { bytes: false });
    // Active means installed, and installing means the precache is complete.
    if (scenario.worker) await first.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 30_000 });
    await first.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    await first.close();
    const page = await context.newPage();
    if (profile === 'phone') await throttle(page);
    return await visit(page, scenario.url, { bytes: false });
  } finally {
    await context.close();
  }
}

export const median = (values: readonly number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * Visits taken in turn, `samples` rounds of one of each (ours, then its floor, then ours again), the
 * median of each figure per visit; each is printed as it comes. Taken in turn, a slow minute of a
 * shared machine falls on ours and its floor alike instead of on whichever ran during it.
 */
export async function sample<K extends string>(label: string, samples: number, visits: Record<K, () => Promise<Visit>>): Promise<Record<K, Visit>> {
  const names = Object.keys(visits) as K[];
  const taken = new Map<K, Visit[]>(names.map((name) => [name, []]));
  for (let i = 0; i < samples; i++) for (const name of names) taken.get(name)!.push(await visits[name]());
  const medians = {} as Record<K, Visit>;
  for (const name of names) {
    const all = taken.get(name)!;
    console.info(`  ${label} ${name}: ${all.map((v) => v.visibleMs.toFixed(0)).join(', ')} ms`);
    medians[name] = { visibleMs: median(all.map((v) => v.visibleMs)), jsCssBytes: median(all.map((v) => v.jsCssBytes)) };
  }
  return medians;
}

export interface BrowserBench {
  browser: Browser;
  app: { url: string };
  floor: { url: string };
  /** The admin's session as the app stores it, for scenarios behind sign-in. */
  signedIn: (context: BrowserContext) => Promise<unknown>;
  /** The name of the first category the list screens show. */
  firstCategory: string;
  /** A food menu of the demo website with 2,000 dishes in 20 categories, and its first dish's name and id. */
  menu: { websiteId: string; menuId: string; firstDish: string; firstDishId: string };
  close(): Promise<void>;
}

/** A restaurant's big menu (issue 12: "a menu of 2,000 items stays smooth") in the demo website. */
async function seedMenu(store: Store): Promise<BrowserBench['menu']> {
  const [site] = await store.db.select({ id: websites.id }).from(websites).limit(1);
  if (!site) throw new Error('the demo data has no website for the menu');
  const websiteId = site.id;
  const [menu] = await store.db.insert(gastroMenus).values({ websiteId, name: 'Bench menu', status: 'published' }).returning({ id: gastroMenus.id });
  const menuId = menu!.id;
  const categories = await store.db
    .insert(gastroCategories)
    .values(Array.from({ length: 20 }, (_, position) => ({ websiteId, menuId, name: `Category ${position + 1}`, position })))
    .returning({ id: gastroCategories.id });
  const firstDish = 'First dish of the bench';
  const [first] = await store.db.insert(gastroItems).values(
    Array.from({ length: 2000 }, (_, position) => ({
      websiteId,
      menuId,
      name: position === 0 ? firstDish : `Dish ${position + 1}`,
      description: 'Tomatoes, mozzarella, basil and a little olive oil',
      price: 500 + (position % 40) * 25,
      categoryId: categories[Math.floor(position / 100)]!.id,
      position,
    })),
  ).returning({ id: gastroItems.id });
  return { websiteId, menuId, firstDish, firstDishId: first!.id };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * Two servers over one store with the demo data of a first start: the built app, and the floor
 * pages served by the very same server code (static files, compression, API), so the only
 * difference measured is the client.
 */
export async function startBrowserBench(): Promise<BrowserBench> {
  buildFloor();
  const database = await createPgDatabase();
  // The demo owner's generated password waits in the data directory until its first sign-in.
  const dataDir = mkdtempSync(join(tmpdir(), 'sitekeeper-bench-'));
  let store: Store | null = null;
  const apps: FastifyInstance[] = [];
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    for (const app of apps) await app.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    store = await openStore(
      { kind: 'postgres', url: database.url },
      firstStart({ adminEmail: 'first@bench.test', adminPassword: 'bench-first-admin', demo: true, dataDir }, () => undefined),
    );
    const admin = await seedUser(store, { type: 'admin', email: 'bench@bench.test', username: 'bench', password: 'bench-password' });
    const menu = await seedMenu(store);
    const token = await tokenFor(store, admin.id);
    const serve = async (clientDir: string) => {
      // Both share one store: closing the app must not close it (close() does that once).
      const app = await buildApp({ config: testAppConfig({ clientDir }), store: { ...store!, close: async () => {} }, mailer: memoryMailer(), logger: false });
      apps.push(app);
      return listen(app);
    };
    const appUrl = await serve(APP_DIR);
    const floorUrl = await serve(FLOOR_DIR);

    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const profile = (await (await fetch(`${appUrl}/api/profile`, { headers })).json()) as { data: Parameters<typeof toSessionUser>[0] };
    const user = JSON.stringify(toSessionUser(profile.data));
    const list = (await (await fetch(`${appUrl}/api/categories?page=1&limit=10`, { headers })).json()) as { data: { name: string }[] };
    const firstCategory = list.data[0]?.name;
    if (!firstCategory) throw new Error('the demo data has no categories to list');

    browser = await chromium.launch(chromiumLaunchOptions);
    return {
      browser,
      app: { url: appUrl },
      floor: { url: floorUrl },
      firstCategory,
      menu,
      signedIn: (context) =>
        context.addInitScript(`localStorage.setItem('auth_token', ${JSON.stringify(token)}); localStorage.setItem('auth_user', ${JSON.stringify(user)});`),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export { APP_DIR, FLOOR_DIR };
