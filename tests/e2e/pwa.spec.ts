import type { Page } from '@playwright/test';
import { categories } from '../../src/server/store/schema';
import { expect, test } from './fixtures';
import { adminPage, seedAccount, signIn } from './sign-in';

const manifestIcons = ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png'];

function pageIsControlled(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const { serviceWorker } = navigator;
    await serviceWorker.ready;
    return serviceWorker.controller?.state === 'activated';
  });
}

test('serves a web app manifest with the three icons', async ({ request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);

  const manifest = (await response.json()) as { name?: string; icons?: { src: string; sizes: string; purpose?: string }[] };
  expect(manifest.name).toBe('Sitekeeper');
  expect(manifest.icons?.map((icon) => icon.src)).toEqual(manifestIcons);
  expect(manifest.icons?.find((icon) => icon.purpose === 'maskable')?.sizes).toBe('512x512');

  for (const src of manifestIcons) {
    const icon = await request.get(src);
    expect(icon.ok(), src).toBe(true);
    expect(icon.headers()['content-type'], src).toBe('image/png');
  }
});

test('is installable and keeps working offline', async ({ profile }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const heading = page.getByRole('heading', { level: 1 });

  await test.step('shows the default white-label name', async () => {
    await page.goto('/');
    await expect(heading).toHaveText('Sitekeeper');
    await expect(page).toHaveTitle('Sitekeeper');
  });

  await test.step('the service worker activates and controls the page', async () => {
    // clientsClaim() usually takes the page over at once; a reload covers the race where it has not yet.
    if (!(await pageIsControlled(page))) await page.reload();
    await expect.poll(() => pageIsControlled(page)).toBe(true);
  });

  await test.step('Chromium reports no installability errors', async () => {
    const cdp = await profile.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  });

  await test.step('offline, a reload renders from the precache', async () => {
    await profile.setOffline(true);
    await page.reload();
    await expect(heading).toHaveText('Sitekeeper');
  });
});

test('opened again, the app starts from the precache without waiting on the network', async ({ profile, server }) => {
  // Two visits and a service worker's install: 28–30 s of the default 30 on a slow day.
  test.setTimeout(60_000);
  const name = `Allotments ${Date.now()}`;
  await server.store.db.insert(categories).values({ name, description: 'kept on this device' });
  const first = profile.pages()[0] ?? (await profile.newPage());
  await adminPage(first, server);
  await first.goto('/websites/categories');
  await expect(first.getByRole('link', { name })).toBeVisible();
  await first.close();

  await test.step('the last list painted from this device before the app’s code runs, inert, and gone once the app shows it', async () => {
    const page = await profile.newPage();
    // What public/snapshot.js paints is over the app only until its screen is ready: note it as it
    // comes, again at each step of its parsing (a slow parser yields in the middle of it), until it goes.
    await page.addInitScript(() => {
      let seen = false;
      new MutationObserver((_, observer) => {
        const early = document.getElementById('snapshot');
        if (!early) {
          if (seen) observer.disconnect();
          return;
        }
        seen = true;
        Object.assign(window, { early: { text: early.textContent, inert: early.inert, hidden: early.getAttribute('aria-hidden') } });
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/websites/categories');
    await expect(page.getByRole('link', { name })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { early?: unknown }).early)).toEqual({ text: expect.stringContaining(name), inert: true, hidden: 'true' });
    await expect(page.locator('#snapshot')).toHaveCount(0);
    await page.close();
  });

  await test.step('with the network cut: the shell and the last list, from this device', async () => {
    await profile.setOffline(true);
    const page = await profile.newPage();
    await page.goto('/websites/categories');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(page.getByRole('link', { name })).toBeVisible();
    await expect(page.getByText(/Offline — showing data as of/)).toBeVisible();
    // A record opened offline: this device's copy with its age; back online, the server's, and no note.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit category' });
    await expect(edit.getByLabel('Name')).toHaveValue(name);
    await expect(edit.getByText(/Offline — showing data as of/)).toBeVisible();
    await profile.setOffline(false);
    await expect(edit.getByText(/Offline — showing data as of/)).toHaveCount(0);
    await expect(page.getByText(/Offline — showing data as of/)).toHaveCount(0);
    await page.close();
  });

  await test.step('with a server that never answers: the same, without waiting for it', async () => {
    // Every API call hangs, as on a link that drops packets; the app must not wait for any of them.
    await profile.route('**/api/**', () => {});
    const page = await profile.newPage();
    await page.goto('/websites/categories');
    await expect(page.getByRole('link', { name })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await page.close();
  });

  await test.step('signed out, with the server hanging: the sign-in form under the brand seen before', async () => {
    const page = await profile.newPage();
    await page.goto('/websites/categories');
    await page.evaluate(() => localStorage.removeItem('auth_token'));
    await page.goto('/login');
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sitekeeper');
    await page.close();
    await profile.unrouteAll({ behavior: 'ignoreErrors' });
  });
});

/** The entries of a built chunk, by its name (`boot`, `app`). */
const chunk = (entries: PerformanceResourceTiming[], name: string) => entries.filter((entry) => new URL(entry.name).pathname.startsWith(`/assets/${name}-`));

test('a signed-in start asks for the screens’ shared code, the shell and its catalog beside boot; the sign-in page loads none of them', async ({ browser, server }) => {
  // No service worker: its answers are not slowed by the emulated link, and this is a first visit.
  const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'block' });
  const page = await context.newPage();
  const scripts = () =>
    page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => /\/assets\/[\w-]+\.js$/.test(entry.name)) as PerformanceResourceTiming[]);

  await page.goto('/login');
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (const name of ['app', 'shell', 'messages']) expect(chunk(await scripts(), name), name).toEqual([]);

  await signIn(page, server, await seedAccount(server, 'admin'));
  await expect(page).toHaveURL(/\/$/);
  // A slow link (the bench's phone) and nothing cached: boot takes a while to arrive, and the shared
  // chunk is asked for meanwhile.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 90_000 });
  await page.goto('/websites/categories');
  await expect(page.getByRole('heading', { name: 'Categories', level: 1 })).toBeVisible({ timeout: 20_000 });
  const entries = await scripts();
  const boot = chunk(entries, 'boot').toSorted((a, b) => b.encodedBodySize - a.encodedBodySize)[0]!;
  // The shared chunk, the shell and the language's whole catalog: all three leave before boot has arrived.
  for (const name of ['app', 'shell', 'messages']) expect(chunk(entries, name)[0]?.startTime, name).toBeLessThan(boot.responseEnd);
  const english = await page.locator('meta[name="signed-in-catalog"][lang="en"]').getAttribute('content');
  expect(chunk(entries, 'messages').map((entry) => new URL(entry.name).pathname)).toEqual([english]);

  // Someone who chose German gets the German catalog early, and never the English one.
  await page.evaluate(() => localStorage.setItem('language', 'de'));
  await cdp.send('Network.clearBrowserCache');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Kategorien', level: 1 })).toBeVisible({ timeout: 20_000 });
  const german = await page.locator('meta[name="signed-in-catalog"][lang="de"]').getAttribute('content');
  const again = await scripts();
  const bootAgain = chunk(again, 'boot').toSorted((a, b) => b.encodedBodySize - a.encodedBodySize)[0]!;
  expect(chunk(again, 'messages').map((entry) => new URL(entry.name).pathname)).toEqual([german]);
  expect(chunk(again, 'messages')[0]!.startTime).toBeLessThan(bootAgain.responseEnd);
  await context.close();
});
