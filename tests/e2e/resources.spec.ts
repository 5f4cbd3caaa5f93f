import type { Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { categories, languages, subcategories } from '../../src/server/store/schema';
import { tokenFor } from '../support/auth';
import { expect, fitsWidth, syncStatus, test } from './fixtures';
import { adminPage, seedAccount } from './sign-in';

/** Another person's session changes a category on the server meanwhile. */
async function changeOnServer(server: Parameters<typeof seedAccount>[0], page: Page, id: string, version: number, name: string) {
  const other = await server.seedUser({ type: 'admin', email: `other-${Date.now()}@e2e.test`, username: `other${Date.now()}`, password: 'another password' });
  const token = await tokenFor(server.store, other.id);
  const response = await page.request.put(`/api/categories/${id}`, {
    headers: { authorization: `Bearer ${token}`, 'if-match': `"${version}"`, 'idempotency-key': crypto.randomUUID() },
    data: { name },
  });
  expect(response.status()).toBe(200);
}

/** A language code unique to the run: the stamp's last digits as letters ("x" + a–j). */
const letters = (stamp: number) => `x${Array.from(String(stamp).slice(-2), (d) => String.fromCharCode(97 + Number(d))).join('')}`;

async function seedCategory(server: Parameters<typeof seedAccount>[0], name: string) {
  const [row] = await server.store.db.insert(categories).values({ name }).returning();
  return row!;
}

test('an admin creates, edits and deletes a category, on a phone', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 360, height: 740 });
  await adminPage(page, server);
  const name = `Bakeries ${Date.now()}`;

  await page.goto('/websites/categories');
  await page.getByRole('button', { name: 'Add category' }).click();
  const add = page.getByRole('dialog', { name: 'Add category' });
  expect(await fitsWidth(page)).toBe(true);
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Description').fill('Bread and cakes');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Category created successfully')).toBeVisible();
  await expect(page.getByRole('link', { name })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('categories-360.png') });

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit category' });
  await expect(edit.getByLabel('Name')).toHaveValue(name);
  await edit.getByLabel('Name').fill(`${name} and cafés`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Category updated successfully')).toBeVisible();
  await expect(page.getByRole('link', { name: `${name} and cafés` })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${name} and cafés` }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog')).filter({ hasText: 'This action cannot be undone.' });
  await expect(confirm).toContainText(`Are you sure you want to delete ${name} and cafés? This action cannot be undone.`);
  await confirm.getByRole('button', { name: 'Yes, Delete' }).click();
  await expect(page.getByText('Category deleted successfully')).toBeVisible();
  await expect(page.getByRole('link', { name: `${name} and cafés` })).toHaveCount(0);

  const left = await server.store.db.select().from(categories).where(eq(categories.name, `${name} and cafés`));
  expect(left).toHaveLength(0);
});

test('changes made offline survive a reload and reach the server exactly once', async ({ profile, server }) => {
  // A service worker's install, offline edits, a reload and the replay: over 30 s on a slow day.
  test.setTimeout(60_000);
  const page = profile.pages()[0] ?? (await profile.newPage());
  const stamp = Date.now();
  const parent = await seedCategory(server, `Food ${stamp}`);
  const [language] = await server.store.db
    .insert(languages)
    .values({ name: `French ${stamp}`, code: letters(stamp), content: { en: { name: 'French' } } })
    .returning();
  await adminPage(page, server);

  // Online once: the screens, their option lists and the record are on the device.
  await page.goto('/websites/subcategories');
  await page.getByRole('button', { name: 'Add subcategory' }).click();
  const online = page.getByRole('dialog', { name: 'Add subcategory' });
  await expect(online.getByLabel('Category').locator('option', { hasText: `Food ${stamp}` })).toHaveCount(1);
  await online.getByRole('button', { name: 'Cancel' }).click();
  await page.goto('/languages');
  await page.getByRole('link', { name: `Edit French ${stamp}` }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`French ${stamp}`);

  await profile.setOffline(true);
  await page.getByLabel('Name', { exact: true }).fill(`Français ${stamp}`);
  await page.getByRole('button', { name: 'Save' }).click();
  // Kept on the device without a toast: the header's count is the one signal.
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*1 pending/);

  await page.goto('/websites/subcategories');
  await page.getByRole('button', { name: 'Add subcategory' }).click();
  const add = page.getByRole('dialog', { name: 'Add subcategory' });
  await add.getByLabel('Name').fill(`Bakeries ${stamp}`);
  await add.getByLabel('Category').selectOption({ label: `Food ${stamp}` });
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*2 pending/);

  await page.reload();
  await expect(page.getByRole('main').getByText(`Bakeries ${stamp}`)).toBeVisible();
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*2 pending/);
  await page.goto('/languages');
  await expect(page.getByRole('main').getByText(`Français ${stamp}`)).toBeVisible();

  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });

  const created = await server.store.db.select().from(subcategories).where(eq(subcategories.name, `Bakeries ${stamp}`));
  expect(created).toHaveLength(1);
  expect(created[0]!.categoryId).toBe(parent.id);
  const [renamed] = await server.store.db.select().from(languages).where(eq(languages.id, language!.id));
  expect(renamed).toMatchObject({ name: `Français ${stamp}`, version: 2 });
});

test('a conflict with another session is shown, and keep-mine and take-theirs both resolve it', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const stamp = Date.now();
  const kept = await seedCategory(server, `Kept ${stamp}`);
  const dropped = await seedCategory(server, `Dropped ${stamp}`);
  await adminPage(page, server);
  await page.goto('/websites/categories');
  await expect(page.getByRole('link', { name: `Kept ${stamp}` })).toBeVisible();

  // Offline, this device renames both; meanwhile someone else renames them on the server.
  await profile.setOffline(true);
  for (const [row, mine] of [
    [kept, `Mine ${stamp}`],
    [dropped, `Mine too ${stamp}`],
  ] as const) {
    await page.getByRole('button', { name: `Edit ${row.name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit category' });
    await edit.getByLabel('Name').fill(mine);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
  }
  await changeOnServer(server, page, kept.id, 1, `Theirs ${stamp}`);
  await changeOnServer(server, page, dropped.id, 1, `Theirs too ${stamp}`);

  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'attention', { timeout: 20_000 });
  await syncStatus(page).click();
  const panel = page.locator('#sync-panel');
  await expect(panel.locator('li[data-status="conflict"]')).toHaveCount(2);

  await panel.locator('li[data-status="conflict"]', { hasText: `Mine ${stamp}` }).getByRole('button', { name: 'Keep mine' }).click();
  await panel.locator('li[data-status="conflict"]', { hasText: `Mine too ${stamp}` }).getByRole('button', { name: 'Take theirs' }).click();
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });

  const names = async (id: string) => (await server.store.db.select().from(categories).where(and(eq(categories.id, id))))[0];
  expect(await names(kept.id)).toMatchObject({ name: `Mine ${stamp}`, version: 3 });
  expect(await names(dropped.id)).toMatchObject({ name: `Theirs too ${stamp}`, version: 2 });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: `Mine ${stamp}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Theirs too ${stamp}` })).toBeVisible();
});

test('the back button asks before leaving a form with unsaved input, and Stay keeps it', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await adminPage(page, server);
  await page.goto('/languages');
  await page.getByRole('link', { name: 'Add language' }).click();
  await expect(page).toHaveURL(/\/languages\/new$/);
  await page.getByLabel('Name', { exact: true }).fill('Welsh');
  // The translations editor is a field kind of its own chunk: it arrives in the form.
  await expect(page.getByLabel('Language code')).toBeVisible();

  await page.goBack();
  const ask = page.getByRole('alertdialog').or(page.getByRole('dialog')).filter({ hasText: 'You have unsaved changes.' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/languages\/new$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Welsh');

  await page.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/languages$/);
});

test('the service worker replays queued changes; a change the server refuses is shown with its reason and can be discarded', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 360, height: 740 });
  await adminPage(page, server);
  await page.goto('/websites/categories');
  await expect(page.getByRole('heading', { name: 'Categories' })).toBeVisible();

  // Requests the server answered: a try the emulated offline network cut off never reached it.
  const sent: boolean[] = [];
  profile.on('requestfinished', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/categories')) sent.push(request.serviceWorker() !== null);
  });

  // Offline, the same name twice: the outbox takes both, the server will refuse the second.
  const name = `Drinks ${Date.now()}`;
  await profile.setOffline(true);
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Add category' }).click();
    const add = page.getByRole('dialog', { name: 'Add category' });
    await add.getByLabel('Name').fill(name);
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toBeHidden();
  }
  await expect(syncStatus(page)).toHaveAccessibleName(/2 pending/);

  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'attention', { timeout: 20_000 });
  expect(sent).toEqual([true, true]);
  expect(await server.store.db.select().from(categories).where(eq(categories.name, name))).toHaveLength(1);

  await syncStatus(page).click();
  const panel = page.locator('#sync-panel');
  const refused = panel.locator('li[data-status="failed"]');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText('This value is already in use');
  const box = await panel.boundingBox();
  expect(box!.x >= 0 && box!.x + box!.width <= 360).toBe(true);

  await refused.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced');
  expect(await server.store.db.select().from(categories).where(eq(categories.name, name))).toHaveLength(1);
});
