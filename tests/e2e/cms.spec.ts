import type { Page } from '@playwright/test';
import { asc, eq } from 'drizzle-orm';
import { cmsPages, media, menuItems, posts, seo, users, websites } from '../../src/server/store/schema';
import { tokenFor } from '../support/auth';
import { png } from '../support/uploads';
import { seedWebsite } from '../support/users';
import { expect, fitsWidth, syncStatus, test } from './fixtures';
import { accountPage } from './sign-in';

/** A PNG as a file chooser hands it over. */
const picture = async (name: string, width: number) => ({ name, mimeType: 'image/png', buffer: await png(width, 300) });

/** An owner signed in on a phone, with a website of their own. */
async function ownerWithWebsite(page: Page, server: Parameters<typeof accountPage>[1]) {
  await page.setViewportSize({ width: 360, height: 740 });
  const account = await accountPage(page, server, 'user');
  const [owner] = await server.store.db.select().from(users).where(eq(users.email, account.email));
  const website = await seedWebsite(server.store, { ownerId: owner!.id, name: `Trattoria ${Date.now()}` });
  return website.id;
}

test('a menu’s items are reordered by buttons and by drag, offline too, and reach the server once', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const site = await ownerWithWebsite(page, server);
  const order = async () =>
    (await server.store.db.select({ label: menuItems.label }).from(menuItems).where(eq(menuItems.websiteId, site)).orderBy(asc(menuItems.position))).map((row) => row.label);

  await page.goto(`/cms/${site}/menu`);
  await page.getByRole('link', { name: 'Add menu' }).click();
  await page.getByLabel('Name').fill('Header');
  await page.getByLabel('Location').fill('header');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Menu created successfully')).toBeVisible();
  await page.getByRole('link', { name: 'Edit Header' }).click();

  for (const label of ['Home', 'Dishes', 'Contact']) {
    await page.getByRole('button', { name: 'Add menu item' }).click();
    const add = page.getByRole('dialog', { name: 'Add menu item' });
    await add.getByLabel('Label').fill(label);
    await add.getByLabel('Or an address').fill(`/${label.toLowerCase()}`);
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Menu item created successfully').first()).toBeVisible();
    await expect(page.getByRole('button', { name: `Move ${label} up` })).toBeVisible();
  }
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('menu-items-360.png') });

  // Buttons: Contact one up.
  await page.getByRole('button', { name: 'Move Contact up' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Contact is now at position 2 of 3' })).toBeAttached();
  await expect.poll(order).toEqual(['Home', 'Contact', 'Dishes']);

  // Drag: Home's handle below Dishes.
  const handle = page.getByRole('button', { name: 'Drag Home to another place' });
  const target = page.getByRole('button', { name: 'Drag Dishes to another place' });
  await target.scrollIntoViewIfNeeded();
  await handle.hover();
  await page.mouse.down();
  const to = (await target.boundingBox())!;
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + 12, { steps: 20 });
  await page.mouse.up();
  await expect.poll(order).toEqual(['Contact', 'Dishes', 'Home']);

  // Offline: the move is kept on the device, survives a reload, and is sent once when back.
  await profile.setOffline(true);
  await page.getByRole('button', { name: 'Move Home up' }).click();
  // Kept on the device once the header counts it: a reload before that write ends would lose it, as closing any app would.
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*1 pending/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Move Contact up' })).toBeDisabled();
  await expect(page.getByRole('listitem').filter({ hasText: 'Home' }).getByRole('button', { name: 'Move Home down' })).toBeEnabled();
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*1 pending/);
  expect(await order()).toEqual(['Contact', 'Dishes', 'Home']);
  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });
  expect(await order()).toEqual(['Contact', 'Home', 'Dishes']);
});

test('the SEO form starts empty, saves the website’s one record, and the CMS dashboard shows the modules', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const site = await ownerWithWebsite(page, server);

  await page.goto(`/websites/seo/${site}`);
  await expect(page.getByLabel('Title')).toHaveValue('');
  await page.getByLabel('Title').fill('Trattoria – Pizza from the wood oven');
  await page.getByLabel('Keywords').fill('pizza, wood oven, pasta');
  await page.getByLabel('Search engines').selectOption({ label: 'Hide from search results, follow links' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('SEO settings created successfully')).toBeVisible();
  const [saved] = await server.store.db.select().from(seo).where(eq(seo.websiteId, site));
  expect(saved).toMatchObject({ title: 'Trattoria – Pizza from the wood oven', keywords: ['pizza', 'wood oven', 'pasta'], robots: 'noindex, follow' });
  expect(await fitsWidth(page)).toBe(true);

  await page.goto(`/cms/${site}`);
  for (const module of ['Pages', 'Menus', 'Posts', 'Hero sliders', 'Gallery sliders', 'Media library', 'Contact forms', 'Gastronomy menus']) {
    await expect(page.getByRole('heading', { name: module, exact: true })).toBeVisible();
  }
  expect(await fitsWidth(page)).toBe(true);
});

test('a page written in the rich-text editor goes into a menu and out through the delivery API, until the key is switched off', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const site = await ownerWithWebsite(page, server);

  await page.goto(`/cms/${site}/pages/new`);
  await page.getByLabel('Title', { exact: true }).fill('Opening hours');
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Published' });
  const editor = page.getByRole('textbox', { name: 'Content' });
  await editor.click();
  await page.keyboard.type('Open ');
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('every day');
  expect(await fitsWidth(page)).toBe(true);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Page created successfully')).toBeVisible();
  const [stored] = await server.store.db.select().from(cmsPages).where(eq(cmsPages.websiteId, site));
  expect(stored).toMatchObject({ slug: 'opening-hours', status: 'published' });
  expect(stored!.content).toMatch(/<p>Open ?<strong> ?every day<\/strong><\/p>/);

  await page.goto(`/cms/${site}/menu/new`);
  await page.getByLabel('Name').fill('Footer');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Edit Footer' }).click();
  await page.getByRole('button', { name: 'Add menu item' }).click();
  const add = page.getByRole('dialog', { name: 'Add menu item' });
  await add.getByLabel('Label').fill('Hours');
  await add.getByLabel('Page').selectOption({ label: 'Opening hours' });
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Menu item created successfully')).toBeVisible();

  // The website's key, as the owner makes it on the website's home.
  const [owner] = await server.store.db.select({ ownerId: websites.ownerId }).from(websites).where(eq(websites.id, site));
  const auth = { authorization: `Bearer ${await tokenFor(server.store, owner!.ownerId)}` };
  const made = await page.request.post(`/api/websites/${site}/api-key`, { headers: auth, data: {} });
  const key = (await made.json()).data.key as string;
  const delivered = await page.request.get('/api/public/pages/opening-hours', { headers: { 'x-api-key': key } });
  expect(delivered.status()).toBe(200);
  expect((await delivered.json()).data.content).toBe(stored!.content);
  const menu = await page.request.get('/api/public/menus', { headers: { 'x-api-key': key } });
  expect(JSON.stringify((await menu.json()).data)).toContain('/opening-hours');
  expect((await page.request.patch(`/api/websites/${site}/api-key/toggle`, { headers: { ...auth, 'if-match': '"1"' } })).status()).toBe(200);
  expect((await page.request.get('/api/public/pages/opening-hours', { headers: { 'x-api-key': key } })).status()).toBe(401);
});

test('a draft page opens on the website’s preview page, and the link’s token alone shows it through the delivery API', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const site = await ownerWithWebsite(page, server);
  // The website's settings name its preview page; here a path of this server, as only the address matters.
  await page.goto(`/websites/edit/${site}`);
  await page.getByLabel('Preview address').fill(`${server.url}/site-preview`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/updated successfully/)).toBeVisible();

  await page.goto(`/cms/${site}/pages/new`);
  await page.getByLabel('Title', { exact: true }).fill('Autumn menu');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Page created successfully')).toBeVisible();
  await page.getByRole('link', { name: 'Edit Autumn menu' }).click();
  await page.getByRole('button', { name: 'Preview' }).scrollIntoViewIfNeeded();
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('page-preview-360.png') });
  // The address as the new tab asks for it: this server's app, not a website, answers it and sends
  // the tab elsewhere, often before a check of the tab's URL could see it.
  const [opened] = await Promise.all([
    profile.waitForEvent('request', (request) => request.isNavigationRequest() && new URL(request.url()).pathname === '/site-preview'),
    page.getByRole('button', { name: 'Preview' }).click(),
  ]);
  const shown = new URL(opened.url()).searchParams;
  expect([shown.get('type'), shown.get('slug')]).toEqual(['page', 'autumn-menu']);

  const [owner] = await server.store.db.select({ ownerId: websites.ownerId }).from(websites).where(eq(websites.id, site));
  const auth = { authorization: `Bearer ${await tokenFor(server.store, owner!.ownerId)}` };
  const key = (await (await page.request.post(`/api/websites/${site}/api-key`, { headers: auth, data: {} })).json()).data.key as string;
  const draft = (headers: Record<string, string>) => page.request.get('/api/public/pages/autumn-menu', { headers: { 'x-api-key': key, ...headers } });
  expect((await draft({})).status()).toBe(404);
  const previewed = await draft({ 'x-preview-token': shown.get('preview')! });
  expect(previewed.status()).toBe(200);
  expect((await previewed.json()).data.title).toBe('Autumn menu');
});

test('pictures uploaded to the library become a post’s cover; offline, an upload and a page wait on the device and arrive once', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const site = await ownerWithWebsite(page, server);
  const files = async () => server.store.db.select().from(media).where(eq(media.websiteId, site));

  await page.goto(`/cms/${site}/media`);
  await expect(page.getByRole('switch', { name: 'Compress images' })).toBeChecked();
  await page.getByLabel('Choose files to upload').setInputFiles([await picture('terrace.png', 640), await picture('oven.png', 480)]);
  await expect.poll(async () => (await files()).map((row) => row.mimetype)).toEqual(['image/webp', 'image/webp']);
  await expect(page.getByRole('button', { name: 'Open terrace.png' })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('media-360.png') });

  await page.goto(`/cms/${site}/posts/new`);
  await page.getByLabel('Title', { exact: true }).fill('Dinner on the terrace');
  await page.getByRole('group', { name: 'Cover picture' }).getByRole('button', { name: 'From the media library' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'terrace.png' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Post created successfully')).toBeVisible();
  const terrace = (await files()).find((row) => row.fileName === 'terrace.png')!;
  const [post] = await server.store.db.select().from(posts).where(eq(posts.websiteId, site));
  expect(post).toMatchObject({ coverMediaId: terrace.id, coverKey: terrace.thumbKey });

  // Offline: a picture and a page are kept on the device, survive a reload, and reach the server once.
  await page.goto(`/cms/${site}/media`);
  await profile.setOffline(true);
  await page.getByLabel('Choose files to upload').setInputFiles([await picture('garden.png', 320)]);
  await expect(page.getByText('Waiting to upload')).toBeVisible();
  await page.goto(`/cms/${site}/pages/new`);
  await page.getByLabel('Title', { exact: true }).fill('Garden');
  await page.getByRole('button', { name: 'Save' }).click();
  // Kept on the device without a toast: the header's count is the one signal.
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*2 pending/);
  await page.reload();
  await expect(syncStatus(page)).toHaveAccessibleName(/Offline.*2 pending/);
  expect(await files()).toHaveLength(2);
  await profile.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-state', 'synced', { timeout: 20_000 });
  expect((await files()).map((row) => row.fileName).toSorted()).toEqual(['garden.png', 'oven.png', 'terrace.png']);
  expect(await server.store.db.select().from(cmsPages).where(eq(cmsPages.websiteId, site))).toHaveLength(1);
});
