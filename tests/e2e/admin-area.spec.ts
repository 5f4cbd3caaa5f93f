import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { apiKeys, partners, users, websites } from '../../src/server/store/schema';
import { seedWebsite } from '../support/users';
import { expect, fitsWidth, test } from './fixtures';
import { adminPage, seedAccount, signIn } from './sign-in';

/** A searchable dropdown of a form (an owner among thousands): typed into, then the match chosen. */
async function pick(page: Page, label: string, typed: string, option: string) {
  await page.locator('main').getByRole('button', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('searchbox', { name: `Search ${label}` }).fill(typed);
  await page.getByRole('button', { name: option, exact: true }).click();
}

/** The field in focus is inside what the screen shows: a phone's keyboard covers the rest. */
const focusedInView = (page: Page) =>
  page.evaluate(() => {
    const box = document.activeElement!.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= (window.visualViewport?.height ?? window.innerHeight);
  });

for (const device of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
]) {
  test(`on a ${device.name}, an admin invites an owner, gives them a partner record and a website with a preview and an API key; the owner sees only that website`, async ({
    profile,
    server,
  }) => {
    test.setTimeout(90_000);
    const page = profile.pages()[0] ?? (await profile.newPage());
    await page.setViewportSize({ width: device.width, height: device.height });
    const stamp = Date.now();
    const email = `owner-${device.name}-${stamp}@e2e.test`;
    const site = `Trattoria ${device.name} ${stamp}`;
    // Another owner's website: the new owner must never see it.
    const stranger = await seedAccount(server, 'user');
    const [strangerRow] = await server.store.db.select().from(users).where(eq(users.email, stranger.email));
    const foreign = await seedWebsite(server.store, { ownerId: strangerRow!.id, name: `Foreign ${stamp}` });
    await adminPage(page, server);

    // The account: no password is chosen here; the invitation mail carries a PIN and a link.
    await page.goto('/users/new');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('First name', { exact: true }).fill('Olga');
    await page.getByLabel('Last name', { exact: true }).fill('Owner');
    expect(await fitsWidth(page)).toBe(true);
    const invitation = server.mail.nextMail(email);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('User created successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/users$/);
    // Quoted-printable, as mail travels: `=3D` is `=`.
    const mail = (await invitation).raw.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const invitePin = mail.match(/\b(\d{6})\b/)![1]!;
    const inviteLink = mail.match(/https?:\/\/\S+\/forgot-password\?\S+/)![0]!;
    expect(mail).not.toMatch(/password:\s*\S/i);
    // The list is a table on a desktop and cards on a phone, with the server's figures above it.
    if (device.name === 'phone') await expect(page.locator('thead')).toBeHidden();
    else await expect(page.locator('thead')).toBeVisible();
    await expect(page.getByText('New (30 days)')).toBeVisible();

    // A partner record for the new account.
    await page.goto('/partners/new');
    await page.getByLabel('Name', { exact: true }).fill(`Agentur ${stamp}`);
    await pick(page, 'Account', email.slice(0, 14), email);
    await page.getByLabel('Partner type', { exact: true }).selectOption('agency');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Partner created successfully')).toBeVisible();

    // The website, owned by the new account, with its partner record.
    await page.goto('/websites/new');
    await page.getByLabel('Name', { exact: true }).fill(site);
    await page.getByLabel('Domain', { exact: true }).fill(`trattoria-${stamp}.example`);
    await pick(page, 'Owner', email.slice(0, 14), email);
    await pick(page, 'Partner', `Agentur ${stamp}`, `Agentur ${stamp}`);
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Website created successfully')).toBeVisible();
    const [created] = await server.store.db.select().from(websites).where(eq(websites.name, site));
    const [record] = await server.store.db.select().from(partners).where(eq(partners.name, `Agentur ${stamp}`));
    expect(created).toMatchObject({ status: 'active', partnerId: record!.id });

    // The dashboard names it among the websites changed last, and the new account among the users.
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Websites' }).getByRole('link', { name: site, exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Users' }).getByRole('link', { name: email, exact: true })).toBeVisible();
    await page.goto('/websites');

    // Its home: a preview uploaded from the device, stored as WebP, and an API key switched off.
    await page.getByRole('link', { name: site, exact: true }).click();
    await expect(page.getByRole('heading', { name: site })).toBeVisible();
    const png = await sharp({ create: { width: 1200, height: 750, channels: 3, background: '#c0392b' } }).png().toBuffer();
    await page.getByLabel('Choose an image for Preview').setInputFiles({ name: 'preview.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByText('Image uploaded.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Preview' })).toHaveAttribute('src', /^\/api\/files\/images\/[0-9a-f-]+\.webp$/);
    await page.getByRole('button', { name: 'Make a key' }).click();
    const shownKey = await page.locator('code').filter({ hasText: /^skp_/ }).last().textContent();
    expect(shownKey).toMatch(/^skp_[\w-]{40,}$/);
    await page.getByRole('button', { name: 'Switch off' }).click();
    await expect(page.getByRole('button', { name: 'Switch on' })).toBeVisible();
    const [key] = await server.store.db.select().from(apiKeys).where(eq(apiKeys.websiteId, created!.id));
    expect(key).toMatchObject({ isActive: false });
    // Stored as its hash, never as itself.
    expect(key!.keyHash).toBe(createHash('sha256').update(shownKey!).digest('hex'));
    expect(JSON.stringify(key)).not.toContain(shownKey!);
    // The key's reference opens beside the app: the server's page (the service worker lets it
    // through), its operations drawn without a script or style from elsewhere.
    const refused: string[] = [];
    page.context().on('console', (message) => message.type() === 'error' && message.page()?.url().includes('/delivery-api') && refused.push(message.text()));
    const [reference] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Delivery API reference' }).click()]);
    // Swagger UI's bundle is a megabyte and a half of script to parse before it draws anything.
    await expect(reference.getByRole('heading', { name: /Delivery API/ })).toBeVisible({ timeout: 20_000 });
    await expect(reference.getByText('Lists the post categories.')).toBeVisible();
    await expect(reference.getByText('/api/cms/pages')).toHaveCount(0);
    expect(refused).toEqual([]);
    await reference.screenshot({ path: test.info().outputPath(`delivery-reference-${device.name}.png`) });
    await reference.close();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`website-home-${device.name}.png`), fullPage: true });

    // The owner chooses a password through the invitation, then signs in with the mailed PIN.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(inviteLink.replace(/^https?:\/\/[^/]+/, ''));
    await page.getByLabel('PIN', { exact: true }).fill(invitePin);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/reset-password$/);
    await page.getByLabel('New password', { exact: true }).fill('olga owns trattorias');
    await page.getByLabel('Confirm new password').fill('olga owns trattorias');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page).toHaveURL(/\/login/);
    await signIn(page, server, { email, password: 'olga owns trattorias' });
    await expect(page).toHaveURL(/\/user\/websites$/);
    // Their one website: its home, at their home.
    await expect(page.getByRole('heading', { level: 1, name: site })).toBeVisible();
    await expect(page.getByText(`Foreign ${stamp}`)).toHaveCount(0);
    // Another owner's website is no more reachable by its address than an unknown one.
    await page.goto(`/websites/${foreign.id}`);
    await expect(page.getByText('Failed to load website')).toBeVisible();
    // An admin route sends the owner home.
    await page.goto('/users');
    await expect(page).toHaveURL(/\/user\/websites$/);
  });
}

test('on a phone, a form stays usable with the on-screen keyboard up', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 390, height: 844 });
  await adminPage(page, server);
  await page.goto('/websites/new');
  // The last text field, far down the form, gets the focus; then the keyboard takes half the screen.
  await page.getByLabel('Description', { exact: true }).focus();
  await page.setViewportSize({ width: 390, height: 420 });
  await expect.poll(() => focusedInView(page)).toBe(true);
  await page.keyboard.type('Pizza and pasta by the harbour');
  await page.getByLabel('Name', { exact: true }).fill(`Harbour ${Date.now()}`);
  expect(await focusedInView(page)).toBe(true);
  // Save is reachable without closing the keyboard.
  await page.getByRole('button', { name: 'Save' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: 'Save' })).toBeInViewport();
});
