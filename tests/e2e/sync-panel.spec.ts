import { and, eq, sql } from 'drizzle-orm';
import { gastroCategories, gastroItems } from '../../src/server/store/schema';
import { expect, fitsWidth, plain, syncStatus, test } from './fixtures';
import { ownerWithLunchMenu } from './restaurant';
import { signIn } from './sign-in';

// Issue 18, items 2 and 4: on a phone in German, references read as names and the sync panel
// says in words what waits and what conflicts, with euros, never ids, field names or cents.
test.use({ hasTouch: true });

test('the sync panel lists a waiting price change and a conflict in German, with euros, and discards after asking', async ({ profile, server }) => {
  test.setTimeout(120_000);
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 390, height: 844 });
  const { account, site, menuId } = await ownerWithLunchMenu(server);
  const [mains] = await server.store.db.insert(gastroCategories).values({ websiteId: site, menuId: menuId, name: 'Hauptspeisen', position: 0 }).returning();
  await server.store.db.insert(gastroItems).values([
    { websiteId: site, menuId: menuId, categoryId: mains!.id, name: 'Pizza Margherita', price: 1090, position: 0 },
    { websiteId: site, menuId: menuId, categoryId: mains!.id, name: 'Suppe', price: 450, position: 1 },
  ]);
  await signIn(page, server, account);
  await expect(page).not.toHaveURL(/\/(login|verification)$/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
  const editor = `/cms/${site}/gastromenu/edit/${menuId}`;
  const dishes = page.getByRole('list', { name: 'Speisen' });
  const dish = (name: string) => dishes.getByRole('listitem').filter({ hasText: name });

  async function setPrice(name: string, price: string) {
    await page.goto(editor);
    await dish(name).getByRole('link', { name: `${name} bearbeiten` }).click();
    const field = page.getByLabel('Preis', { exact: true });
    await expect(field).not.toHaveValue('');
    // The dish's category by its name, not its id, offline too.
    await expect(page.getByLabel('Kategorie')).toHaveText(/Hauptspeisen/);
    await field.fill(price);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page).not.toHaveURL(/\/edit\//);
  }

  // The menu editor names each dish's category.
  await page.goto(editor);
  await expect(dish('Pizza Margherita')).toContainText('Kategorie Hauptspeisen');

  // The soup's price, changed offline here and on the server meanwhile: a conflict once back online.
  await profile.setOffline(true);
  await setPrice('Suppe', '5,20');
  await server.store.db
    .update(gastroItems)
    .set({ price: 480, version: sql`${gastroItems.version} + 1` })
    .where(and(eq(gastroItems.menuId, menuId), eq(gastroItems.name, 'Suppe')));
  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'attention', { timeout: 30_000 });

  // Offline again: the pizza's new price waits, and a category made offline is a choice at once.
  await profile.setOffline(true);
  await setPrice('Pizza Margherita', '11,50');
  await page.goto(`/cms/${site}/gastromenu/${menuId}/categories`);
  await page.getByRole('button', { name: 'Speisekartenkategorie hinzufügen' }).click();
  const form = page.getByRole('dialog', { name: 'Speisekartenkategorie hinzufügen' });
  await form.getByLabel('Name').fill('Desserts');
  await form.getByRole('button', { name: 'Speichern' }).click();
  await expect(form).toBeHidden();
  await page.goto(`/cms/${site}/gastromenu/${menuId}/items/new`);
  await expect(page.getByLabel('Kategorie').locator('option')).toHaveText(['Auswählen …', 'Hauptspeisen', 'Desserts']);
  await page.goto(editor);
  await expect(dish('Pizza Margherita')).toContainText('Kategorie Hauptspeisen');
  expect(await fitsWidth(page)).toBe(true);
  await dish('Pizza Margherita').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('menu-editor-offline-390-de.png') });

  await syncStatus(page).click();
  const panel = page.getByRole('region', { name: 'Synchronisieren' });
  const waiting = panel.getByRole('list', { name: 'Änderungen, die auf das Senden warten' });
  const pizza = waiting.getByRole('listitem').filter({ hasText: 'Pizza Margherita' }).first();
  await expect(pizza).toBeVisible();
  expect(plain(await pizza.innerText())).toContain('Preis 10,90 € → 11,50 €');
  await expect(waiting).toContainText('Neu: Speisekartenkategorie „Desserts“');
  const conflict = panel.getByRole('listitem').filter({ hasText: 'Speise „Suppe“' });
  expect(plain(await conflict.innerText())).toMatch(/Preis\s+Meine Version 5,20 €\s+Server-Version 4,80 €/);
  expect(await panel.innerText()).not.toMatch(/price|[0-9a-f]{8}-[0-9a-f]{4}-|\b(1150|480|520)\b/);
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('sync-panel-390-de.png') });

  await pizza.getByRole('button', { name: 'Verwerfen' }).click();
  const question = page.getByRole('dialog', { name: 'Diese Änderung verwerfen?' });
  await expect(question).toContainText('Diese Änderung wird von diesem Gerät entfernt und nie gesendet.');
  await page.screenshot({ path: test.info().outputPath('sync-panel-discard-390-de.png') });
  await question.getByRole('button', { name: 'Verwerfen' }).click();
  await expect(waiting.getByText('Pizza Margherita')).toHaveCount(0);
  await expect(waiting).toContainText('Neu: Speisekartenkategorie „Desserts“');
});
