import { test as base, type BrowserContext, type Page, type WorkerFixture } from '@playwright/test';
import { startE2EServer, type E2EServer } from '../support/e2e-server';

/**
 * `server`: one real server per worker (see tests/support/e2e-server.ts); `baseURL` points at it.
 * `profile`: a persistent Chromium profile — IndexedDB, service workers and installability
 * behave as for a person only outside Playwright's incognito contexts.
 */
/** One real server for a worker; a spec that overrides it gets a worker, and a server, of its own. */
export const serverFixture: [WorkerFixture<E2EServer, object>, { scope: 'worker' }] = [
  // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
  // oxlint-disable-next-line no-empty-pattern
  async ({}, use) => {
    const server = await startE2EServer();
    await use(server);
    await server.close();
  },
  { scope: 'worker' },
];

export const test = base.extend<{ profile: BrowserContext }, { server: E2EServer }>({
  server: serverFixture,
  baseURL: async ({ server }, use) => use(server.url),
  // `test.use({ hasTouch: true })` makes it a touch screen, as on a phone.
  profile: async ({ playwright, launchOptions, server, hasTouch }, use, testInfo) => {
    const profile = await playwright.chromium.launchPersistentContext(testInfo.outputPath('profile'), {
      ...launchOptions,
      hasTouch,
      baseURL: server.url,
    });
    await use(profile);
    await profile.close();
  },
});
export { expect } from '@playwright/test';

/** The header's sync status button. */
export const syncStatus = (page: Page) => page.locator('button[aria-controls="sync-panel"]');
/** Whether the page is no wider than its window. */
export const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
/** Text with its no-break spaces (money, "10,90 €") as plain ones. */
export const plain = (text: string) => text.replace(/\u00a0/g, ' ');
