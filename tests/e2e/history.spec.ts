import type { Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { DEMO_OWNER_EMAIL } from '../../src/server/store/demo';
import { gastroItems } from '../../src/server/store/schema';
import type { E2EServer } from '../support/e2e-server';
import { expect, plain, serverFixture, syncStatus, test as base } from './fixtures';
import { demoRestaurant, foodMenuTile, installedApp } from './restaurant';

// Issue 20: change over time, as the restaurant's owner has it on the phone, in German, at 390 px.
// A server of its own: these journeys change and delete the demo's dish the other specs count on.
const test = base.extend<object, { server: E2EServer }>({ server: serverFixture });
test.use({ hasTouch: true });

const DISH = 'Pizza Margherita';

const dishOf = async (server: E2EServer, websiteId: string) =>
  (await server.store.db.select().from(gastroItems).where(and(eq(gastroItems.websiteId, websiteId), eq(gastroItems.name, DISH))))[0]!;


/** From the app's home to the dish's sheet, where its price is typed and saved. */
async function openDish(page: Page) {
  await page.goto('/');
  await (await foodMenuTile(page)).tap();
  await page.getByRole('button', { name: DISH, exact: true }).tap();
  await expect(page.getByRole('dialog', { name: DISH })).toBeVisible();
}

async function savePrice(page: Page, server: E2EServer, websiteId: string, typed: string, cents: number) {
  await page.getByLabel('Preis (EUR)').fill(typed);
  await page.getByRole('button', { name: 'Preis speichern' }).tap();
  await expect.poll(async () => (await dishOf(server, websiteId)).price).toBe(cents);
}

/** The dish's whole form, its history opened; its changes, newest first, as their lines read. */
async function openHistory(page: Page) {
  await page.getByRole('link', { name: 'Alle Angaben' }).tap();
  await page.getByText('Verlauf', { exact: true }).tap();
  const history = page.locator('details[open] ol');
  await expect(history.getByRole('listitem').first()).toBeVisible();
  return history.getByRole('listitem');
}

test('the owner changes a price twice, reads both changes in euros in the dish’s history, restores the first, and brings the dish back from the recycle bin', async ({ profile, server }, testInfo) => {
  test.setTimeout(120_000);
  const site = await demoRestaurant(server);
  await server.store.db.update(gastroItems).set({ price: 890 }).where(eq(gastroItems.id, (await dishOf(server, site)).id));
  const page = profile.pages()[0] ?? (await profile.newPage());
  await installedApp(page, server, DEMO_OWNER_EMAIL);

  await openDish(page);
  await savePrice(page, server, site, '9,50', 950);
  // The sheet stays on the dish as saved, for the next change.
  await savePrice(page, server, site, '9,90', 990);

  const changes = await openHistory(page);
  await expect.poll(async () => plain((await changes.nth(0).textContent()) ?? '')).toMatch(/Preis9,50 € → 9,90 €/);
  await expect.poll(async () => plain((await changes.nth(1).textContent()) ?? '')).toMatch(/Preis8,90 € → 9,50 €/);
  // Who, when and from which device; never an id or a price in cents.
  await expect(changes.nth(0)).toContainText('Chrome');
  await expect(changes.nth(0)).not.toContainText('990');
  await page.screenshot({ path: testInfo.outputPath('dish-history-de-390.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await changes.nth(1).getByRole('button', { name: 'Diese Version wiederherstellen' }).tap();
  const question = page.getByRole('dialog', { name: 'Diese Version wiederherstellen?' });
  await question.getByRole('button', { name: 'Wiederherstellen' }).tap();
  await expect.poll(async () => (await dishOf(server, site)).price).toBe(950);

  // Deleted from the menu's editor, back from the website's recycle bin, where it was.
  const dish = await dishOf(server, site);
  await page.goto(`/cms/${site}/gastromenu/edit/${dish.menuId}`);
  await page.getByRole('button', { name: `${DISH} löschen` }).tap();
  await page.getByRole('dialog', { name: 'Löschen bestätigen' }).getByRole('button', { name: 'Ja, löschen' }).tap();
  await expect.poll(async () => (await server.store.db.select().from(gastroItems).where(eq(gastroItems.id, dish.id))).length).toBe(0);
  await page.goto(`/cms/${site}`);
  await page.getByRole('link', { name: 'Papierkorb' }).tap();
  await page.getByRole('button', { name: `${DISH} wiederherstellen` }).tap();
  await expect.poll(async () => (await dishOf(server, site))?.price).toBe(950);
  await expect(page.getByRole('button', { name: `${DISH} wiederherstellen` })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('recycle-bin-de-390.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('a version restored offline waits on the phone and reaches the server once it is back', async ({ profile, server }) => {
  test.setTimeout(120_000);
  const site = await demoRestaurant(server);
  const dish = await dishOf(server, site);
  await server.store.db.update(gastroItems).set({ price: 1200 }).where(eq(gastroItems.id, dish.id));
  const page = profile.pages()[0] ?? (await profile.newPage());
  await installedApp(page, server, DEMO_OWNER_EMAIL);
  await openDish(page);
  await savePrice(page, server, site, '13,00', 1300);

  // Read once online: the history is this device's copy from then on.
  const changes = await openHistory(page);
  await expect.poll(async () => plain((await changes.nth(0).textContent()) ?? '')).toMatch(/12,00 € → 13,00 €/);
  await profile.setOffline(true);
  await changes.nth(1).getByRole('button', { name: 'Diese Version wiederherstellen' }).tap();
  await page.getByRole('dialog', { name: 'Diese Version wiederherstellen?' }).getByRole('button', { name: 'Wiederherstellen' }).tap();
  // Kept on the phone: the header counts it, the server has not seen it.
  await expect(syncStatus(page)).toContainText('1');
  expect((await dishOf(server, site)).price).toBe(1300);

  await profile.setOffline(false);
  await expect.poll(async () => (await dishOf(server, site)).price, { timeout: 60_000 }).toBe(1200);
  const kept = await server.store.db.select().from(gastroItems).where(eq(gastroItems.id, dish.id));
  expect(kept[0]!.version).toBe(dish.version + 2);
});
