import type { Page, TestInfo } from '@playwright/test';
import { DEMO_MEMBER_EMAIL, DEMO_OWNER_EMAIL } from '../../src/server/store/demo';
import type { E2EServer } from '../support/e2e-server';
import { expect, serverFixture, test as base } from './fixtures';
import { signIn, seedAccount } from './sign-in';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/store/schema';
import { demoRestaurant, PASSWORD } from './restaurant';
import {
  findingsInPage,
  frames,
  networkQuiet,
  screenKind,
  screenLinks,
  settled,
  type Finding,
  type FindingKind,
} from './sweep-checks';

// Issue 18, item 7: on every screen each role's navigation reaches, at phone, tablet and desktop
// widths, in English and German, no word breaks inside itself, no text sticks out of its box, the
// page is never wider than the window, and on touch widths every tap target is 44 px tall.
// The three demo roles: a team member with edit rights sees the owner's screens with fewer
// controls, so the owner's sweep stands for theirs.

const WIDTHS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 768 },
] as const;
const LANGUAGES = ['en', 'de'] as const;
type Language = (typeof LANGUAGES)[number];
/** Enough for every kind of screen a role reaches; a bound, so a link loop cannot run away. */
const MAX_SCREENS = 120;

interface Located extends Finding {
  role: string;
  language: string;
  width: number;
  screen: string;
}

/** Buttons that open something over a screen, each looked at open: the header's panels (on the role's home) and a dish's sheet. */
const openers = (page: Page, home: boolean) => [
  ...(home
    ? ['sidebar', 'mobile-search', 'sync-panel', 'filter-panel', 'user-menu'].map((panel) => ({ name: panel, button: page.locator(`header button[aria-controls="${panel}"]`) }))
    : []),
  ...(home ? [{ name: 'languages', button: page.locator('header').getByRole('button', { name: /^(Language|Sprache)$/ }) }] : []),
  { name: 'dish sheet', button: page.locator('main').getByRole('button', { name: 'Pizza Margherita', exact: true }) },
];

/** Screens looked at always (in German), not only when something fails. */
const ALWAYS_SHOWN: { role: string; screen: RegExp; width: number }[] = [
  { role: 'owner', screen: /^\/user\/websites$/, width: 390 },
  { role: 'owner', screen: /^\/cms\/:id\/gastromenu\/:id$/, width: 390 },
  { role: 'owner', screen: /^\/cms\/:id\/gastromenu\/(:id\/)?allergens$/, width: 390 },
  { role: 'owner', screen: /^\/cms\/:id\/gastromenu\/:id \+ dish sheet$/, width: 390 },
  { role: 'admin', screen: /^\/websites$/, width: 768 },
  { role: 'owner', screen: /^\/cms\/:id\/activity$/, width: 390 },
  { role: 'owner', screen: /^\/cms\/:id\/recycle-bin$/, width: 390 },
  { role: 'admin', screen: /^\/activity$/, width: 1366 },
  { role: 'owner', screen: /^\/websites\/:id\/webhooks$/, width: 360 },
];

const fileName = (...parts: (string | number)[]) => `${parts.join('-').replace(/[/:]+/g, '_').replace(/^_|_$/g, '')}.png`;

/** The admin whose screens are swept: one account for both languages' sweeps on a worker's server. */
async function adminAccount(server: E2EServer) {
  const account = { email: 'erika.mustermann@example.com', password: 'correct horse battery' };
  const [known] = await server.store.db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
  return known ? account : seedAccount(server, 'admin', { ...account, username: 'erika' });
}

/** The account's language and this device's choice, as the header's switcher sets them. */
async function chooseLanguage(page: Page, server: E2EServer, email: string, language: Language) {
  await server.store.db.update(users).set({ language }).where(eq(users.email, email));
  await page.evaluate((code) => localStorage.setItem('language', code), language);
}

/**
 * Follows the role's links from its home (sidebar, header, the screens' own links), one screen of
 * each kind, and checks each at every width in one language. Returns what it found.
 */
async function sweep(page: Page, role: string, language: Language, testInfo: TestInfo): Promise<{ screens: string[]; findings: Located[]; views: number }> {
  const quiet = networkQuiet(page);
  const findings: Located[] = [];
  const screens: string[] = [];
  const views = new Set<string>();

  const check = async (screen: string, width: number) => {
    views.add(`${screen} ${width}`);
    const found = await page.evaluate(findingsInPage, width <= 768);
    findings.push(...found.map((finding) => ({ ...finding, role, language, width, screen })));
    const always = language === 'de' && ALWAYS_SHOWN.some((shot) => shot.role === role && shot.width === width && shot.screen.test(screen));
    if (found.length > 0 || always) await page.screenshot({ path: testInfo.outputPath(fileName(role, language, width, screen)), fullPage: true });
  };

  const look = async (screen: string, order: readonly (typeof WIDTHS)[number][]) => {
    // What opens over the screen: the header's panels on the role's home, a dish's sheet on the menu.
    // A screen without one of them has it at no width: asked once, not at each.
    const all = openers(page, screen === screens[0]);
    const counts = await Promise.all(all.map((opener) => opener.button.count()));
    const present = all.filter((_, index) => counts[index]! > 0);
    for (const size of order) {
      await page.setViewportSize(size);
      await frames(page);
      await check(screen, size.width);
      for (const opener of present) {
        const button = opener.button.first();
        if (!(await button.isVisible())) continue;
        await button.click();
        await frames(page);
        await check(`${screen} + ${opener.name}`, size.width);
        await page.keyboard.press('Escape');
        await frames(page);
        if ((await button.getAttribute('aria-expanded')) === 'true') {
          await button.click({ force: true });
          await frames(page);
        }
      }
    }
  };

  // The app reads the language when it starts: the first screen is a page load, every other one
  // the app's own navigation, as after a tap on a link, instead of starting the app again.
  let started = false;
  const visit = async (path: string) => {
    if (started) {
      await page.evaluate(async (to) => {
        history.pushState(null, '', to);
        // The router renders on the pushState; a frame later the new screen, or its loading state, is there.
        await new Promise(requestAnimationFrame);
      }, path);
    } else {
      started = true;
      await page.goto(path);
    }
    await settled(page, quiet);
  };

  let forward = true;
  const widthsInTurn = () => {
    // Back and forth, so each screen starts at the width the last one ended on.
    forward = !forward;
    return forward ? WIDTHS : WIDTHS.toReversed();
  };

  const queue = ['/'];
  const queued = new Set([screenKind('/')]);
  while (queue.length > 0 && screens.length < MAX_SCREENS) {
    await visit(queue.shift()!);
    const url = new URL(page.url());
    const kind = screenKind(`${url.pathname}${url.search}`);
    if (screens.includes(kind)) continue;
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    screens.push(kind);
    for (const link of await screenLinks(page)) {
      if (queued.has(screenKind(link))) continue;
      queued.add(screenKind(link));
      queue.push(link);
    }
    await look(kind, widthsInTurn());
  }
  return { screens, findings, views: views.size };
}

/** A summary a person can act on: counts by kind, then each finding once with the widths and languages it was seen at. */
function report(role: string, screens: string[], views: number, findings: Located[], seconds: number): string {
  const kinds: FindingKind[] = ['broken word', 'overflow', 'page too wide', 'small tap target'];
  const count = (kind: FindingKind) => {
    const of = findings.filter((finding) => finding.kind === kind);
    return `${of.length} ${kind} on ${new Set(of.map((finding) => finding.screen)).size} screens`;
  };
  const grouped = new Map<string, Located[]>();
  for (const finding of findings) {
    const key = [finding.screen, finding.kind, finding.where, finding.text].join(' | ');
    grouped.set(key, [...(grouped.get(key) ?? []), finding]);
  }
  const lines = [...grouped.entries()].map(([key, seen]) => {
    const at = [...new Set(seen.map((finding) => `${finding.width}/${finding.language}`))].join(' ');
    return `  ${key} | ${seen[0]!.detail} | at ${at}`;
  });
  return [
    `${role}: ${screens.length} screens × ${WIDTHS.length} widths (${views} views with what opens over them) in ${seconds} s; ${kinds.map(count).join(', ')}`,
    ...lines,
  ].join('\n');
}

async function sweepAs(page: Page, server: E2EServer, role: string, account: { email: string; password: string }, language: Language, testInfo: TestInfo) {
  const started = Date.now();
  // Layout without motion: the same boxes, without waiting for the sidebar to slide after each resize.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize(WIDTHS[0]);
  await server.store.db.update(users).set({ language: 'en' }).where(eq(users.email, account.email));
  await signIn(page, server, account);
  await expect(page).not.toHaveURL(/\/(login|verification)$/);
  await chooseLanguage(page, server, account.email, language);
  const { screens, findings, views } = await sweep(page, role, language, testInfo);
  const text = report(`${role} (${language})`, screens, views, findings, Math.round((Date.now() - started) / 1000));
  console.info(text);
  await testInfo.attach(`${role}-${language}-findings.txt`, { body: text, contentType: 'text/plain' });
  expect(screens.length).toBeGreaterThan(3);
  expect(findings, text).toEqual([]);
}

/**
 * A server of its own: the sweep looks at the demo data of a first start and its own accounts,
 * never at what other specs left in the shared one (a file overriding a worker fixture gets its own worker).
 */
const test = base.extend<object, { server: E2EServer }>({ server: serverFixture });

test.describe('every screen at 360, 390, 768 and 1366 px in English and German', () => {
  // Each role and language on its own: one sweep is most of a minute of waiting on screens, and the
  // sweeps wait side by side on the workers.
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(300_000);

  for (const language of LANGUAGES) {
    test(`the admin, ${language}`, async ({ page, server }, testInfo) => {
      await demoRestaurant(server);
      await sweepAs(page, server, 'admin', await adminAccount(server), language, testInfo);
    });

    test(`the demo owner, ${language}`, async ({ page, server }, testInfo) => {
      await demoRestaurant(server);
      await sweepAs(page, server, 'owner', { email: DEMO_OWNER_EMAIL, password: PASSWORD }, language, testInfo);
    });

    test(`the demo team member, view only, ${language}`, async ({ page, server }, testInfo) => {
      await demoRestaurant(server);
      await sweepAs(page, server, 'member', { email: DEMO_MEMBER_EMAIL, password: PASSWORD }, language, testInfo);
    });
  }

  test('with reduced motion, a table measuring itself turns into cards without a frame of the table’s borders', async ({ page, server }) => {
    await demoRestaurant(server);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 768, height: 1024 });
    await signIn(page, server, await seedAccount(server, 'admin'));
    await expect(page).not.toHaveURL(/\/(login|verification)$/);
    await page.goto('/websites');
    const wrap = page.locator('[data-layout="cards"]');
    await expect(wrap.getByRole('link', { name: 'Trattoria Demo', exact: true })).toBeVisible();
    // What the table does on every render and resize (data-table.tsx): lay out as a table, measure, back to cards.
    const transitions = await wrap.evaluate((box: HTMLElement) => {
      box.dataset.layout = 'table';
      void box.offsetWidth;
      box.dataset.layout = 'cards';
      return document.getAnimations().length;
    });
    expect(transitions).toBe(0);
  });
});
