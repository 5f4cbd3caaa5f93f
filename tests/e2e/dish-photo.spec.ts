import { and, eq } from 'drizzle-orm';
import { gastroItems, media } from '../../src/server/store/schema';
import { expect, fitsWidth, syncStatus, test } from './fixtures';
import { cameraPhoto, ownerWithLunchMenu } from './restaurant';
import { signIn } from './sign-in';

// Issue 18, item 3: a restaurant owner takes a photo for a dish right in its form, on a phone,
// offline, in German.
test.use({ hasTouch: true });

test('a photo taken offline in a new dish’s form shows at once, and reaches the server once, before the dish', async ({ profile, server }) => {
  test.setTimeout(120_000);
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 390, height: 844 });
  const { account, site, menuId } = await ownerWithLunchMenu(server);
  await server.store.db.insert(gastroItems).values({ websiteId: site, menuId: menuId, name: 'Minestrone', price: 650, position: 0 });
  await signIn(page, server, account);
  await expect(page).not.toHaveURL(/\/(login|verification)$/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
  const editor = `/cms/${site}/gastromenu/edit/${menuId}`;
  const photos = () => server.store.db.select().from(media).where(eq(media.websiteId, site));
  const dishes = (name: string) => server.store.db.select().from(gastroItems).where(and(eq(gastroItems.menuId, menuId), eq(gastroItems.name, name)));

  // Seen once online, as the owner's phone has: the menu editor and its dishes.
  await page.goto(editor);
  await expect(page.getByRole('list', { name: 'Speisen' }).getByText('Minestrone')).toBeVisible();

  await profile.setOffline(true);
  await page.getByRole('link', { name: 'Speise hinzufügen' }).first().click();
  await page.getByLabel('Name').fill('Bruschetta');
  await page.getByLabel('Preis', { exact: true }).fill('7,50');
  const picture = page.getByRole('group', { name: 'Bild' });
  await picture.getByLabel('Foto aufnehmen für Bild').setInputFiles(await cameraPhoto());

  await expect(picture.getByRole('status')).toHaveText('Auf diesem Gerät gespeichert; wird hochgeladen, sobald die Verbindung zurück ist.');
  await expect(picture.getByRole('img', { name: 'Bild' })).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => picture.getByRole('img', { name: 'Bild' }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(4032);
  expect(await fitsWidth(page)).toBe(true);
  await picture.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dish-photo-form-390-de.png') });

  await page.getByRole('button', { name: 'Speichern' }).click();
  // Kept on the device: back to the menu.
  await expect(page).toHaveURL(new RegExp(`/gastromenu/${menuId}$`));
  await page.goto(editor);
  const waiting = page.getByRole('list', { name: 'Speisen' }).getByRole('listitem').filter({ hasText: 'Bruschetta' });
  await expect(waiting.locator('img')).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => waiting.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(4032);
  expect(await fitsWidth(page)).toBe(true);
  await waiting.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dish-photo-editor-offline-390-de.png') });
  expect([await photos(), await dishes('Bruschetta')]).toEqual([[], []]);

  // Back online: the photo first (the dish's picture is copied from it when the dish is written), then the dish, each once.
  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 30_000 });
  const [photo, ...morePhotos] = await photos();
  const [dish, ...moreDishes] = await dishes('Bruschetta');
  expect([morePhotos, moreDishes]).toEqual([[], []]);
  expect(photo).toMatchObject({ fileName: 'IMG_2041.jpg', mimetype: 'image/webp', width: 2400, height: 1800 });
  // The dish keeps its photo's thumbnail for lists (ADR 036).
  expect(dish).toMatchObject({ price: 750, mediaId: photo!.id, imageKey: photo!.thumbKey });
  expect(photo!.createdAt.getTime()).toBeLessThan(dish!.createdAt.getTime());

  await page.reload();
  const served = page.getByRole('list', { name: 'Speisen' }).getByRole('listitem').filter({ hasText: 'Bruschetta' });
  await expect(served.locator('img')).toHaveAttribute('src', /^\/api\/files\//);
  // The list's cell loads the thumbnail (400 px wide), not the 2,400 px photo.
  await expect.poll(() => served.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(400);
  await served.locator('img').evaluate((image: HTMLImageElement) => image.decode());
  await served.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dish-photo-editor-synced-390-de.png') });

  // The photo is the library's now, offered to any other picture field.
  await served.getByRole('link', { name: 'Bruschetta bearbeiten' }).click();
  await page.getByRole('group', { name: 'Bild' }).getByRole('button', { name: 'Aus der Mediathek' }).click();
  const library = page.getByRole('dialog', { name: 'Aus der Mediathek wählen' });
  await expect(library.getByRole('button', { name: 'IMG_2041.jpg' })).toBeVisible();
  await library.locator('img').evaluate((image: HTMLImageElement) => image.decode());
  // The sheet has slid in.
  await library.evaluate((sheet) => Promise.all(sheet.getAnimations({ subtree: true }).map((animation) => animation.finished)));
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('dish-photo-library-390-de.png') });
});
