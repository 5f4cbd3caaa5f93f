import { expect, type Page } from '@playwright/test';
import type { E2EServer } from '../support/e2e-server';
import type { SeedUser } from '../support/users';

let seeded = 0;

/** A user unique to the calling test: the worker's server outlives single tests. */
export async function seedAccount(server: E2EServer, type: SeedUser['type'], extra: Partial<SeedUser> = {}) {
  seeded += 1;
  const account = {
    type,
    email: `${type}${seeded}-${Date.now()}@e2e.test`,
    username: `${type}${seeded}${Date.now()}`,
    password: 'correct horse battery',
    firstName: 'Erika',
    lastName: 'Mustermann',
    ...extra,
  } satisfies SeedUser;
  await server.seedUser(account);
  return account;
}

/** Signs in through the real pages: password, then the PIN read from the mail the server sent. */
export async function signIn(page: Page, server: E2EServer, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email or username').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const pin = server.mail.nextPin(account.email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/verification$/);
  await page.getByLabel('PIN', { exact: true }).fill(await pin);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Signs in as a fresh account of `type` and waits until the service worker controls the page (it replays the outbox). */
export async function accountPage(page: Page, server: E2EServer, type: SeedUser['type'] = 'admin') {
  const account = await seedAccount(server, type);
  await signIn(page, server, account);
  await expect(page).not.toHaveURL(/\/(login|verification)$/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
  return account;
}

/** A fresh admin's signed-in page, on the dashboard. */
export async function adminPage(page: Page, server: E2EServer) {
  const account = await accountPage(page, server, 'admin');
  await expect(page).toHaveURL(/\/$/);
  return account;
}
