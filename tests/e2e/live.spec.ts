import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { cmsPages, gastroItems } from '../../src/server/store/schema';
import { openStore } from '../../src/server/store/open';
import { startE2EServer, type E2EServer } from '../support/e2e-server';
import { createPgDatabase } from '../support/store';
import { expect, plain, test } from './fixtures';
import { installedApp, kitchenMember, ownerWithLunchMenu, PHONE, TABLET } from './restaurant';

// Issue 21: a restaurant runs on several devices at once. The owner changes the menu on a phone;
// the kitchen's tablet, open on the same menu, shows it without a reload.

/** A device of its own: a browser profile with its service worker, signed in on `server`. */
async function device(launch: (dir: string) => Promise<BrowserContext>, testInfo: TestInfo, name: string) {
  const context = await launch(testInfo.outputPath(name));
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

/**
 * The owner's phone changes a dish's price and marks another sold out; each change is timed from
 * the phone's save to the tablet's showing it. Returns the two times in ms.
 */
async function changeOnPhoneSeeOnTablet(phone: Page, tablet: Page, menuPath: string) {
  await phone.goto(menuPath);
  await tablet.goto(menuPath);
  await expect(tablet.getByRole('button', { name: 'Minestrone', exact: true })).toBeVisible();
  const tabletPrice = tablet.getByRole('button', { name: 'Minestrone', exact: true });

  await phone.getByRole('button', { name: 'Minestrone', exact: true }).tap();
  await phone.getByLabel('Preis (EUR)').fill('7,20');
  await phone.getByRole('button', { name: 'Preis speichern' }).tap();
  const saved = Date.now();
  await expect.poll(async () => plain((await tabletPrice.textContent()) ?? ''), { intervals: [20] }).toContain('7,20 €');
  const priceShown = Date.now() - saved;
  await phone.keyboard.press('Escape');

  await phone.getByRole('button', { name: 'Tiramisu', exact: true }).tap();
  await phone.getByRole('switch', { name: 'Verfügbar' }).tap();
  const flipped = Date.now();
  await expect(tablet.getByText('Nicht verfügbar')).toBeVisible();
  const soldOutShown = Date.now() - flipped;
  return { priceShown, soldOutShown };
}

/**
 * What the server sends down a page's live stream, as the browser receives it (the DevTools
 * protocol streams a response's body as it arrives): the `data` of every event so far.
 */
async function streamHeardBy(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  let text = '';
  const append = (base64?: string) => (text += base64 ? Buffer.from(base64, 'base64').toString() : '');
  let stream: string | undefined;
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (!new URL(response.url).pathname.endsWith('/api/events')) return;
    stream = requestId;
    void cdp.send('Network.streamResourceContent', { requestId }).then(({ bufferedData }) => append(bufferedData), () => {});
  });
  cdp.on('Network.dataReceived', ({ requestId, data }) => requestId === stream && append(data));
  await cdp.send('Network.enable');
  return {
    opened: () => stream !== undefined,
    events: () => [...text.matchAll(/^data: (.*)$/gm)].map(([, data]) => data!),
  };
}

async function restaurantOn(server: E2EServer) {
  const { account, site, menuId } = await ownerWithLunchMenu(server);
  await server.store.db.insert(gastroItems).values([
    { websiteId: site, menuId, name: 'Minestrone', price: 650, position: 0 },
    { websiteId: site, menuId, name: 'Tiramisu', price: 550, position: 1 },
  ]);
  const member = await kitchenMember(server, site, { gastro: 'edit' });
  return { owner: account.email, member, menuPath: `/cms/${site}/gastromenu/${menuId}`, site };
}

test.use({ hasTouch: true });

test('a price changed and a dish sold out on the owner’s phone show on the kitchen’s tablet within a second, without a reload; a member without food menus hears nothing of them', async ({ playwright, launchOptions, server }, testInfo) => {
  test.setTimeout(120_000);
  const { owner, member, menuPath, site } = await restaurantOn(server);
  // A third device, of a member who edits the website's pages but has no food menus: it hears the
  // pages and nothing of the menu.
  const [page] = await server.store.db.insert(cmsPages).values({ websiteId: site, title: 'Opening hours', slug: 'opening-hours' }).returning();
  const frontOfHouse = await kitchenMember(server, site, { pages: 'edit' });
  const launch = (dir: string) => playwright.chromium.launchPersistentContext(dir, { ...launchOptions, hasTouch: true, baseURL: server.url });
  const phone = await device(launch, testInfo, 'phone');
  const tablet = await device(launch, testInfo, 'tablet');
  const desk = await device(launch, testInfo, 'desk');
  try {
    await installedApp(phone.page, server, owner, PHONE);
    await installedApp(tablet.page, server, member, TABLET);
    await installedApp(desk.page, server, frontOfHouse, TABLET);
    const heard = await streamHeardBy(desk.page);
    await desk.page.goto(`/cms/${site}/pages`);
    await expect(desk.page.getByText('Opening hours')).toBeVisible();
    await expect.poll(heard.opened).toBe(true);
    const times = await changeOnPhoneSeeOnTablet(phone.page, tablet.page, menuPath);
    console.info(`live: price on the tablet ${times.priceShown} ms after the phone's save, sold out ${times.soldOutShown} ms after the switch`);
    await tablet.page.screenshot({ path: testInfo.outputPath('tablet-after-phone.png') });
    // A page changed meanwhile reaches the desk through the same stream, after the menu's changes did
    // everywhere else: whatever it heard of them would be there by now.
    await server.store.db.update(cmsPages).set({ title: 'Opening hours in winter', version: 2 }).where(eq(cmsPages.id, page!.id));
    await expect(desk.page.getByText('Opening hours in winter')).toBeVisible();
    expect(heard.events().map((data) => JSON.parse(data) as { entries: string[]; record: string })).toEqual([{ entries: ['pages'], record: page!.id, website: site, action: 'update', version: 2 }]);
    // The tablet's device copy has the new price too: offline, a reload shows it.
    await tablet.context.setOffline(true);
    await tablet.page.reload();
    await expect(tablet.page.getByRole('button', { name: 'Minestrone', exact: true })).toContainText('7,20');
    expect((await server.store.db.select().from(gastroItems).where(eq(gastroItems.websiteId, site))).map((dish) => [dish.name, dish.price, dish.available])).toEqual(
      expect.arrayContaining([
        ['Minestrone', 720, true],
        ['Tiramisu', 550, false],
      ]),
    );
  } finally {
    await phone.context.close();
    await tablet.context.close();
    await desk.context.close();
  }
});

test('the same with the phone on one server and the tablet on another, both of one PostgreSQL', async ({ playwright, launchOptions }, testInfo) => {
  test.skip(!process.env.TEST_DATABASE_URL, 'needs PostgreSQL (TEST_DATABASE_URL)');
  test.setTimeout(120_000);
  const database = await createPgDatabase();
  const servers: E2EServer[] = [];
  try {
    for (let n = 0; n < 2; n += 1) servers.push(await startE2EServer(await openStore({ kind: 'postgres', url: database.url }, async () => {})));
    const [one, two] = servers as [E2EServer, E2EServer];
    const { owner, member, menuPath } = await restaurantOn(one);
    const phone = await device((dir) => playwright.chromium.launchPersistentContext(dir, { ...launchOptions, hasTouch: true, baseURL: one.url }), testInfo, 'phone');
    const tablet = await device((dir) => playwright.chromium.launchPersistentContext(dir, { ...launchOptions, hasTouch: true, baseURL: two.url }), testInfo, 'tablet');
    try {
      await installedApp(phone.page, one, owner, PHONE);
      await installedApp(tablet.page, two, member, TABLET);
      const times = await changeOnPhoneSeeOnTablet(phone.page, tablet.page, menuPath);
      console.info(`live across two servers: price ${times.priceShown} ms, sold out ${times.soldOutShown} ms`);
    } finally {
      await phone.context.close();
      await tablet.context.close();
    }
  } finally {
    for (const server of servers) await server.close();
    await database.drop();
  }
});
