import { expect, test } from './fixtures';
import { seedAccount, signIn } from './sign-in';

const adminLinks = ['Dashboard', 'Users', 'Partners', 'Websites', 'Languages', 'Admins', 'Recycle bin', 'Activity'];

test('an unauthenticated visit lands on /login', async ({ page }) => {
  for (const path of ['/', '/users', '/profile', '/cms/0190a1b2-0000-7000-8000-000000000001/pages', '/verification', '/no/such/page']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole('heading', { level: 2, name: 'Sign in' })).toBeVisible();
});

test('an admin signs in with the mailed PIN and lands on the dashboard with the admin sidebar', async ({ page, server }) => {
  const admin = await seedAccount(server, 'admin');
  await signIn(page, server, admin);

  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link')).toHaveText(adminLinks);
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page).toHaveTitle('Dashboard · Sitekeeper');
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText('EM');
});

test('the interface switches to German and stays German after the reload', async ({ page, server }) => {
  const admin = await seedAccount(server, 'admin');
  await signIn(page, server, admin);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Language' }).click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await reloaded;

  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(await page.evaluate(() => [localStorage.getItem('language'), JSON.parse(localStorage.getItem('auth_user') ?? '{}').language])).toEqual([
    'de',
    'de',
  ]);
  // A form check speaks German too: its messages come from the same catalog.
  await page.goto('/profile');
  await page.locator('input[name="currentPassword"]').press('Enter');
  await expect(page.getByText('Dieses Feld ist erforderlich').first()).toBeVisible();
});

test('logout returns to /login and clears the stored session', async ({ page, server }) => {
  const admin = await seedAccount(server, 'admin');
  await signIn(page, server, admin);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();

  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('auth_user')])).toEqual([null, null]);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('a non-admin opening /users lands on /user/websites', async ({ page, server }) => {
  const owner = await seedAccount(server, 'user');
  await signIn(page, server, owner);
  await expect(page).toHaveURL(/\/user\/websites$/);

  await page.goto('/users');
  await expect(page).toHaveURL(/\/user\/websites$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My websites' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link')).toHaveText(['Websites', 'Partners']);
});

test('the profile saves names and shows a wrong current password at its field', async ({ page, server }) => {
  const owner = await seedAccount(server, 'user');
  await signIn(page, server, owner);
  await expect(page).toHaveURL(/\/user\/websites$/);
  await page.goto('/profile');

  await page.getByLabel('First name').fill('Erik');
  await page.getByLabel('Last name').fill('Zander');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText('EZ');

  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('Confirm new password').fill('a brand new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is wrong.')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveValue('a brand new password');
  await expect(page.getByText('This device')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the sidebar slides in over an overlay and locks page scroll', async ({ page, server }) => {
    const admin = await seedAccount(server, 'admin');
    await signIn(page, server, admin);
    await expect(page).toHaveURL(/\/$/);
    const sidebar = page.locator('#sidebar');
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });

    await expect(sidebar).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();

    await expect(sidebar).toBeInViewport({ ratio: 1 });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('sidebar-overlay')).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');

    await page.getByTestId('sidebar-overlay').click({ position: { x: 370, y: 400 } });
    await expect(sidebar).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');

    await toggle.click();
    await sidebar.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(sidebar).toBeHidden();
  });
});
