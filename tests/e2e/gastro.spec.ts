import type { Locator, Page } from '@playwright/test';
import { and, asc, eq } from 'drizzle-orm';
import { gastroAllergens, gastroItems, gastroMenus, users } from '../../src/server/store/schema';
import { seedWebsite } from '../support/users';
import { expect, fitsWidth, syncStatus, test } from './fixtures';
import { accountPage, seedAccount, signIn } from './sign-in';

// Issue 12: a restaurant owner on a phone's home-screen app with a bad connection.
test.use({ hasTouch: true });

/** Adds a dish from the menu's printed view: name, price as typed, allergens by their checkbox. */
async function addDish(page: Page, name: string, price: string, allergens: string[]) {
  await page.getByRole('link', { name: 'Add dish' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Price', { exact: true }).fill(price);
  for (const allergen of allergens) await page.getByRole('checkbox', { name: allergen }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
}

/** Whether a tap on `target`'s middle reaches it although `over` covers that point. */
async function tapLandsOn(target: Locator, over: Locator): Promise<boolean> {
  const box = (await target.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const cover = (await over.boundingBox())!;
  expect(x >= cover.x && x <= cover.x + cover.width && y >= cover.y && y <= cover.y + cover.height, 'the toasts cover the link').toBe(true);
  return target.evaluate((element, [px, py]) => element.contains(document.elementFromPoint(px!, py!)), [x, y]);
}

test('a restaurant owner builds a menu on a phone, then again offline, and the server has all of it once', async ({ profile, server }) => {
  // Two menus of three dishes each, through the real pages: minutes on a loaded 2-core machine.
  test.setTimeout(150_000);
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 390, height: 844 });
  const account = await accountPage(page, server, 'user');
  const [owner] = await server.store.db.select().from(users).where(eq(users.email, account.email));
  const site = (await seedWebsite(server.store, { ownerId: owner!.id, name: `Trattoria ${Date.now()}` })).id;
  const menuNamed = async (name: string) => (await server.store.db.select().from(gastroMenus).where(and(eq(gastroMenus.websiteId, site), eq(gastroMenus.name, name))))[0];
  const dishes = async (menuId: string) =>
    server.store.db.select().from(gastroItems).where(eq(gastroItems.menuId, menuId)).orderBy(asc(gastroItems.position));
  const letters = async (ids: string[]) =>
    (await server.store.db.select({ id: gastroAllergens.id, identifier: gastroAllergens.identifier }).from(gastroAllergens).where(eq(gastroAllergens.websiteId, site)))
      .filter((row) => ids.includes(row.id))
      .map((row) => row.identifier)
      .toSorted()
      .join('');

  /** Creates a menu, adds three dishes, moves the last one up, and marks the second sold out; on- or offline alike. */
  async function buildMenu(name: string, online: boolean) {
    await page.goto(`/cms/${site}/gastromenu`);
    await page.getByRole('link', { name: 'Add food menu' }).click();
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: `Edit ${name}` }).click();
    await page.getByRole('link', { name: 'Allergens' }).first().click();
    await page.getByRole('button', { name: 'Load default allergens' }).click();
    await expect(page.getByRole('button', { name: 'Edit Cereals containing gluten' })).toBeVisible();
    // Online the toasts of the save and the load lie over the back link for five seconds; a tap goes through them to the link.
    if (online) expect(await tapLandsOn(page.getByRole('link', { name: 'Back to the menu' }), page.getByRole('region', { name: 'Notifications' }))).toBe(true);
    await page.getByRole('link', { name: 'Back to the menu' }).click();

    await addDish(page, 'Soup', '6,50', ['A · Cereals containing gluten']);
    await addDish(page, 'Salad', '8.90', ['M · Mustard']);
    await addDish(page, 'Pasta', '12,00', ['A · Cereals containing gluten', 'C · Eggs']);
    expect(await fitsWidth(page)).toBe(true);

    // Two taps from the menu: the dish, then its switch.
    await page.getByRole('button', { name: 'Salad', exact: true }).tap();
    await page.getByRole('switch', { name: 'Available' }).tap();
    await expect(page.getByRole('switch', { name: 'Available' })).not.toBeChecked();
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Edit menu' }).click();
    await page.getByRole('button', { name: 'Move Pasta up' }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Pasta is now at position 2 of 3' })).toBeAttached();
    expect(await fitsWidth(page)).toBe(true);
  }

  /** What the server holds of a menu: its dishes in order, with price, letters and availability. */
  async function served(name: string) {
    const menu = await menuNamed(name);
    return Promise.all((await dishes(menu!.id)).map(async (dish) => [dish.name, dish.price, await letters(dish.allergenIds), dish.available]));
  }
  const expected = [
    ['Soup', 650, 'A', true],
    ['Pasta', 1200, 'AC', true],
    ['Salad', 890, 'M', false],
  ];

  await buildMenu('Lunch', true);
  await expect.poll(() => served('Lunch')).toEqual(expected);
  expect(await server.store.db.select().from(gastroAllergens).where(eq(gastroAllergens.websiteId, site))).toHaveLength(14);
  await page.screenshot({ path: test.info().outputPath('gastro-menu-390.png') });

  // The same offline: kept on the device through a reload, sent once when the connection is back.
  await profile.setOffline(true);
  await buildMenu('Dinner', false);
  // Kept on the device once the header counts all six (the menu, three dishes, a dish sold out, the
  // move): a reload before the last write ends would lose it, as closing any app would.
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*6 pending/);
  await page.reload();
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*pending/);
  expect(await menuNamed('Dinner')).toBeUndefined();
  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 });
  expect(await served('Dinner')).toEqual(expected);
  expect(await server.store.db.select().from(gastroMenus).where(eq(gastroMenus.websiteId, site))).toHaveLength(2);
  // Loading the defaults again, offline, made no second set.
  expect(await server.store.db.select().from(gastroAllergens).where(eq(gastroAllergens.websiteId, site))).toHaveLength(14);
});

test('a team member who may view the gastro module sees the menu without edit controls', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 390, height: 844 });
  const owner = await seedAccount(server, 'user');
  const [ownerRow] = await server.store.db.select().from(users).where(eq(users.email, owner.email));
  const site = (await seedWebsite(server.store, { ownerId: ownerRow!.id, name: `Bistro ${Date.now()}` })).id;
  const [menu] = await server.store.db.insert(gastroMenus).values({ websiteId: site, name: 'Weekly menu', status: 'published' }).returning();
  await server.store.db.insert(gastroItems).values([
    { websiteId: site, menuId: menu!.id, name: 'Goulash', price: 1150, position: 0 },
    { websiteId: site, menuId: menu!.id, name: 'Strudel', price: 590, position: 1 },
  ]);
  const member = await seedAccount(server, 'teammember', {
    websiteId: site,
    role: { name: 'Waiter', permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: 'view' } },
  });
  await signIn(page, server, member);
  await expect(page).not.toHaveURL(/\/(login|verification)$/);

  await page.goto(`/cms/${site}/gastromenu/${menu!.id}`);
  await expect(page.getByRole('heading', { name: 'Weekly menu' })).toBeVisible();
  await expect(page.getByText('Goulash')).toBeVisible();
  await expect(page.getByText('Strudel')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add dish' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit menu' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Goulash', exact: true })).toHaveCount(0);

  await page.goto(`/cms/${site}/gastromenu`);
  await expect(page.getByRole('cell', { name: 'Weekly menu' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add food menu' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit Weekly menu' })).toHaveCount(0);
  expect(await fitsWidth(page)).toBe(true);
});
