import type { BrowserContext, Page, TestInfo } from '@playwright/test';
import { and, eq, sql } from 'drizzle-orm';
import { DEMO_OWNER_EMAIL } from '../../src/server/store/demo';
import { gastroAllergens, gastroCategories, gastroItems, gastroMenus, media } from '../../src/server/store/schema';
import type { E2EServer } from '../support/e2e-server';
import { expect, fitsWidth, plain, syncStatus, test } from './fixtures';
import { cameraPhoto, demoRestaurant, foodMenuTile, installedApp, kitchenMember, PHONE, TABLET } from './restaurant';

/*
 * Issue 18, "done when": the restaurant's menu kept offline for a whole service, in German. The
 * app is opened once online (installed), then everything happens without a connection: a new
 * category, a dish in it with a photo taken in its form, allergens and a price; another price;
 * a dish sold out; a dish moved. The app is closed and opened again offline, and shows all of it.
 * Meanwhile two prices were changed elsewhere. Back online, the server holds each change once,
 * the two clashes read in German with euros, one is kept, one is taken from the server.
 */
test.use({ hasTouch: true });

/** What one run changes: its own dishes, so the owner's and the kitchen's journeys share the demo menu. */
interface Script {
  category: string;
  dish: { name: string; price: string; cents: number; allergen: string; letter: string };
  keep: { name: string; mine: string; mineCents: number; theirsCents: number };
  take: { name: string; mine: string; theirsCents: number; theirsText: string };
  soldOut: string;
  moved: string;
}

/** Text as the page shows it, with Intl's no-break spaces as plain ones. */
/** Cents as the German interface writes them. */
const euros = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

async function journey(profile: BrowserContext, server: E2EServer, email: string, size: typeof PHONE, script: Script, testInfo: TestInfo) {
  const site = await demoRestaurant(server);
  const [menu] = await server.store.db.select().from(gastroMenus).where(eq(gastroMenus.websiteId, site));
  const view = `/cms/${site}/gastromenu/${menu!.id}`;
  const dishRow = (name: string) => server.store.db.select().from(gastroItems).where(and(eq(gastroItems.menuId, menu!.id), eq(gastroItems.name, name)));
  const shot = (page: Page, name: string) => page.screenshot({ path: testInfo.outputPath(`${name}-${size.width}-de.png`), fullPage: true });

  let page = profile.pages()[0] ?? (await profile.newPage());
  await installedApp(page, server, email, size);
  /** The app closed and opened again, on the same device. */
  const reopen = async () => {
    await page.close();
    page = await profile.newPage();
    await page.setViewportSize(size);
  };
  // Installed and opened once online: the menu, its editor, its categories and a dish's form.
  await page.goto('/');
  await (await foodMenuTile(page)).tap();
  await expect(page.getByRole('button', { name: script.keep.name, exact: true })).toBeVisible();
  for (const path of [`${view}/categories`, `${view}/items/new`, `/cms/${site}/gastromenu/edit/${menu!.id}`]) {
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
    // The dish's form seen whole, its choices read (and kept on the device), before the owner moves on:
    // left while its allergens were still on their way, they would not be there offline.
    if (path.endsWith('/items/new')) await expect(page.getByRole('checkbox', { name: script.dish.allergen })).toBeVisible();
  }
  await expect(page.getByRole('list', { name: 'Speisen' }).getByText(script.moved)).toBeVisible();

  await profile.setOffline(true);
  // Closed, and opened again without a connection: the home, calm.
  await reopen();
  await page.goto('/');
  await expect(page.getByRole('link', { name: /^Speisekarte/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  await test.step('a new category, and a dish in it with a photo, an allergen and a price', async () => {
    await page.goto(`${view}/categories`);
    await page.getByRole('button', { name: 'Speisekartenkategorie hinzufügen' }).tap();
    const form = page.getByRole('dialog', { name: 'Speisekartenkategorie hinzufügen' });
    await form.getByLabel('Name').fill(script.category);
    await form.getByRole('button', { name: 'Speichern' }).tap();
    await expect(form).toBeHidden();

    await page.goto(`${view}/items/new`);
    await page.getByLabel('Name').fill(script.dish.name);
    await page.getByLabel('Preis', { exact: true }).fill(script.dish.price);
    // The category made a moment ago, offline, is a choice at once.
    await page.getByLabel('Kategorie').selectOption({ label: script.category });
    await page.getByRole('checkbox', { name: script.dish.allergen }).check();
    const picture = page.getByRole('group', { name: 'Bild' });
    await picture.getByLabel('Foto aufnehmen für Bild').setInputFiles(await cameraPhoto());
    await expect(picture.getByRole('img', { name: 'Bild' })).toHaveAttribute('src', /^blob:/);
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Speichern' }).tap();
    await expect(page).toHaveURL(new RegExp(`${view}$`));
  });

  await test.step('two prices changed and a dish sold out, from the menu itself', async () => {
    for (const { name, mine } of [script.keep, script.take]) {
      await page.getByRole('button', { name, exact: true }).tap();
      await page.getByLabel('Preis (EUR)').fill(mine);
      await page.getByRole('button', { name: 'Preis speichern' }).tap();
      // The sheet stays on the dish as saved, for its next change; closed, the menu shows the price.
      const sheet = page.getByRole('dialog', { name });
      await expect(sheet.getByLabel('Preis (EUR)')).toHaveValue(mine);
      await sheet.getByRole('button', { name: 'Schließen' }).tap();
      await expect(page.getByRole('button', { name, exact: true })).toContainText(mine);
    }
    await page.getByRole('button', { name: script.soldOut, exact: true }).tap();
    const sheet = page.getByRole('dialog', { name: script.soldOut });
    await sheet.getByRole('switch', { name: 'Verfügbar' }).tap();
    await expect(sheet.getByRole('switch', { name: 'Verfügbar' })).not.toBeChecked();
    await sheet.getByRole('button', { name: 'Schließen' }).tap();
    await expect(page.getByRole('button', { name: script.soldOut, exact: true })).toContainText('Nicht verfügbar');
  });

  await test.step('a dish moved up in the editor', async () => {
    await page.goto(`/cms/${site}/gastromenu/edit/${menu!.id}`);
    await page.getByRole('button', { name: `${script.moved} nach oben verschieben` }).tap();
    // Seven changes wait: the category, the photo, the dish, two prices, the sold-out dish, the order.
    await expect(syncStatus(page)).toHaveAccessibleName(/Offline, 7 ausstehend/);
  });

  // Meanwhile, on another device: the two prices this phone changed too.
  for (const { name, cents } of [
    { name: script.keep.name, cents: script.keep.theirsCents },
    { name: script.take.name, cents: script.take.theirsCents },
  ]) {
    await server.store.db
      .update(gastroItems)
      .set({ price: cents, version: sql`${gastroItems.version} + 1` })
      .where(and(eq(gastroItems.menuId, menu!.id), eq(gastroItems.name, name)));
  }
  const before = await server.store.db.select().from(gastroItems).where(eq(gastroItems.menuId, menu!.id)).orderBy(gastroItems.position);
  const order = before.map((row) => row.name);
  const at = order.indexOf(script.moved);
  const expectedOrder = [...order.slice(0, at - 1), script.moved, order[at - 1]!, ...order.slice(at + 1)];

  await test.step('closed and opened again offline: all of it is there', async () => {
    await reopen();
    await page.goto('/');
    await (await foodMenuTile(page)).tap();
    await expect(page.getByRole('heading', { name: script.category })).toBeVisible();
    const added = page.getByRole('button', { name: script.dish.name, exact: true });
    await expect(added).toContainText(script.dish.price);
    await expect(page.getByRole('button', { name: script.keep.name, exact: true })).toContainText(script.keep.mine);
    await expect(page.getByRole('button', { name: script.soldOut, exact: true })).toContainText('Nicht verfügbar');
    await expect(syncStatus(page)).toHaveAccessibleName(/Offline/);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'journey-menu-offline');

    await page.goto(`/cms/${site}/gastromenu/edit/${menu!.id}`);
    const rows = page.getByRole('list', { name: 'Speisen' }).getByRole('listitem');
    await expect(rows.filter({ hasText: script.dish.name }).locator('img')).toHaveAttribute('src', /^blob:/);
    const edits = await rows.getByRole('link', { name: / bearbeiten$/ }).evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? link.textContent ?? ''));
    expect(edits.map((label) => label.replace(/ bearbeiten$/, '')).filter((name) => order.includes(name))).toEqual(expectedOrder);
  });

  await test.step('back online: each change once, the clashes in German with euros, one kept, one taken', async () => {
    await profile.setOffline(false);
    await expect(syncStatus(page)).toHaveAttribute('data-state', 'attention', { timeout: 60_000 });
    await syncStatus(page).tap();
    const panel = page.getByRole('region', { name: 'Synchronisieren' });
    const kept = panel.getByRole('listitem').filter({ hasText: script.keep.name });
    const taken = panel.getByRole('listitem').filter({ hasText: script.take.name });
    // A clash is listed first and its fields compared once the server's version is read.
    await expect.poll(async () => plain(await kept.innerText())).toMatch(new RegExp(`Preis\\s+Meine Version ${script.keep.mine} €\\s+Server-Version ${euros(script.keep.theirsCents)}`));
    await expect.poll(async () => plain(await taken.innerText())).toContain(script.take.theirsText);
    expect(await panel.innerText()).not.toMatch(/price|[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`journey-conflicts-${size.width}-de.png`) });
    await kept.getByRole('button', { name: 'Meine Version behalten' }).tap();
    await taken.getByRole('button', { name: 'Server-Version übernehmen' }).tap();
    await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 60_000 });
  });

  // The server equals the phone, each change once.
  const [category, ...moreCategories] = await server.store.db.select().from(gastroCategories).where(eq(gastroCategories.name, script.category));
  const [dish, ...moreDishes] = await dishRow(script.dish.name);
  const [allergen] = await server.store.db.select().from(gastroAllergens).where(and(eq(gastroAllergens.websiteId, site), eq(gastroAllergens.identifier, script.dish.letter)));
  const photos = await server.store.db.select().from(media).where(eq(media.id, dish!.mediaId!));
  expect([moreCategories, moreDishes, photos.length]).toEqual([[], [], 1]);
  expect(dish).toMatchObject({ price: script.dish.cents, categoryId: category!.id, allergenIds: [allergen!.id], imageKey: photos[0]!.thumbKey });
  expect((await dishRow(script.keep.name))[0]!.price).toBe(script.keep.mineCents);
  expect((await dishRow(script.take.name))[0]!.price).toBe(script.take.theirsCents);
  expect((await dishRow(script.soldOut))[0]!.available).toBe(false);
  const after = await server.store.db.select().from(gastroItems).where(eq(gastroItems.menuId, menu!.id)).orderBy(gastroItems.position);
  expect(after.map((row) => row.name).filter((name) => order.includes(name))).toEqual(expectedOrder);

  await page.goto(view);
  await expect(page.getByRole('button', { name: script.take.name, exact: true })).toContainText(plain(script.take.theirsText).split(' ')[0]!);
  await shot(page, 'journey-menu-synced');
}

test('the owner keeps the menu on a phone offline, and the server ends up with every change once', async ({ profile, server }, testInfo) => {
  test.setTimeout(240_000);
  await journey(
    profile,
    server,
    DEMO_OWNER_EMAIL,
    PHONE,
    {
      category: 'Gelati',
      dish: { name: 'Affogato', price: '5,50', cents: 550, allergen: 'G · Milch und Laktose', letter: 'G' },
      keep: { name: 'Pizza Margherita', mine: '11,50', mineCents: 1150, theirsCents: 1200 },
      take: { name: 'Tagliatelle al ragù', mine: '15,50', theirsCents: 1600, theirsText: '16,00 €' },
      soldOut: 'Panna cotta',
      moved: 'Espresso',
    },
    testInfo,
  );
});

test('a kitchen team member with edit rights does the same on a tablet', async ({ profile, server }, testInfo) => {
  test.setTimeout(240_000);
  const site = await demoRestaurant(server);
  // Making a category and a dish is "manage" (spec §6); a photo in the form goes to the media library.
  const email = await kitchenMember(server, site, { gastro: 'manage', media: 'manage' });
  await journey(
    profile,
    server,
    email,
    TABLET,
    {
      category: 'Contorni',
      dish: { name: 'Patate al forno', price: '4,20', cents: 420, allergen: 'L · Sellerie', letter: 'L' },
      keep: { name: 'Pizza Diavola', mine: '14,50', mineCents: 1450, theirsCents: 1490 },
      take: { name: 'Risotto ai funghi', mine: '16,50', theirsCents: 1690, theirsText: '16,90 €' },
      soldOut: 'Tiramisù',
      moved: 'Insalata mista',
    },
    testInfo,
  );
});
