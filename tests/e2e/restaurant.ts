import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { MODULE_KEYS } from '../../src/contract/modules';
import type { CmsModule, Level } from '../../src/contract/permissions';
import { DEMO_MEMBER_EMAIL, DEMO_OWNER_EMAIL, demoCatalogs, demoOwner } from '../../src/server/store/demo';
import { gastroMenus, users, websites } from '../../src/server/store/schema';
import type { E2EServer } from '../support/e2e-server';
import { seedUser, seedWebsite } from '../support/users';
import { expect } from './fixtures';
import { seedAccount, signIn } from './sign-in';

// The demo restaurant of a first start, its people, and the app as they have it installed: the
// browser tests of the restaurant owner's phone and the kitchen's tablet share them.

export const PASSWORD = 'correct horse battery';
export const PHONE = { width: 390, height: 844 };
export const TABLET = { width: 768, height: 1024 };

/** An owner who speaks German, with a website of their own and its published lunch menu, made for one test. */
export async function ownerWithLunchMenu(server: E2EServer) {
  const account = await seedAccount(server, 'user', { language: 'de' });
  const [owner] = await server.store.db.select().from(users).where(eq(users.email, account.email));
  const site = (await seedWebsite(server.store, { ownerId: owner!.id, name: `Trattoria ${Date.now()}` })).id;
  const [menu] = await server.store.db.insert(gastroMenus).values({ websiteId: site, name: 'Mittagskarte', status: 'published', language: 'de' }).returning();
  return { account, site, menuId: menu!.id };
}

/** "Trattoria Demo", its owner and its view-only member, made once per server; every account speaks German. */
export async function demoRestaurant(server: E2EServer): Promise<string> {
  const [owner] = await server.store.db.select().from(users).where(eq(users.email, DEMO_OWNER_EMAIL));
  if (!owner) {
    await server.store.db.transaction(async (tx) => {
      await demoCatalogs(tx as never);
      await demoOwner(tx as never, PASSWORD);
    });
  }
  await server.store.db.update(users).set({ language: 'de' }).where(eq(users.email, DEMO_OWNER_EMAIL));
  await server.store.db.update(users).set({ language: 'de' }).where(eq(users.email, DEMO_MEMBER_EMAIL));
  const [site] = await server.store.db.select().from(websites).where(eq(websites.name, 'Trattoria Demo'));
  return site!.id;
}

const NO_MODULES = Object.fromEntries(MODULE_KEYS.map((key) => [key, 'none'])) as Record<CmsModule, Level>;

/** A team member of the demo restaurant whose role has the CMS and these module levels, in German. */
export async function kitchenMember(server: E2EServer, websiteId: string, levels: Partial<Record<CmsModule, Level>>): Promise<string> {
  const tag = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `kitchen-${tag}@e2e.test`;
  await seedUser(server.store, {
    type: 'teammember',
    email,
    username: `kitchen${tag}`,
    password: PASSWORD,
    language: 'de',
    websiteId,
    role: { name: `Kitchen ${tag}`, permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { ...NO_MODULES, ...levels } },
  });
  return email;
}

/** Signs in through the real pages at this size and waits until the service worker controls the app, as an installed one. */
export async function installedApp(page: Page, server: E2EServer, email: string, size = PHONE): Promise<void> {
  await page.setViewportSize(size);
  await signIn(page, server, { email, password: PASSWORD });
  await expect(page).not.toHaveURL(/\/(login|verification)$/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
}

/** A plate on a table, as a phone's camera takes it: 12 megapixels, 5.4 MB of JPEG (its grain is what makes it that large). */
const plate = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="4032" height="3024"><g opacity="0.55">
    <rect width="100%" height="100%" fill="#8b5a2b"/><circle cx="2016" cy="1512" r="1250" fill="#f4efe6"/>
    <circle cx="2016" cy="1512" r="850" fill="#c0392b"/><circle cx="1700" cy="1300" r="160" fill="#2e7d32"/><circle cx="2350" cy="1700" r="160" fill="#2e7d32"/>
  </g></svg>`,
);
export const cameraPhoto = async () => ({
  name: 'IMG_2041.jpg',
  mimeType: 'image/jpeg',
  buffer: await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .composite([{ input: plate }])
    .jpeg({ quality: 90 })
    .toBuffer(),
});

/**
 * The food menu's tile on the website's home, once it knows the restaurant has one menu and leads
 * straight into it (until the menus are read from the device it leads to their list).
 */
export async function foodMenuTile(page: Page) {
  const tile = page.getByRole('link', { name: /^Speisekarte/ });
  await expect(tile).toHaveAttribute('href', /\/gastromenu\/[0-9a-f-]{36}$/);
  return tile;
}
