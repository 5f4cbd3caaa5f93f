import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const manifestIcons = ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png'];

function pageIsControlled(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const { serviceWorker } = navigator;
    await serviceWorker.ready;
    return serviceWorker.controller?.state === 'activated';
  });
}

test('serves a web app manifest with the three icons', async ({ request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);

  const manifest = (await response.json()) as { name?: string; icons?: { src: string; sizes: string; purpose?: string }[] };
  expect(manifest.name).toBe('Sitekeeper');
  expect(manifest.icons?.map((icon) => icon.src)).toEqual(manifestIcons);
  expect(manifest.icons?.find((icon) => icon.purpose === 'maskable')?.sizes).toBe('512x512');

  for (const src of manifestIcons) {
    const icon = await request.get(src);
    expect(icon.ok(), src).toBe(true);
    expect(icon.headers()['content-type'], src).toBe('image/png');
  }
});

test('is installable and keeps working offline', async ({ profile }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  const heading = page.getByRole('heading', { level: 1 });

  await test.step('shows the default white-label name', async () => {
    await page.goto('/');
    await expect(heading).toHaveText('Sitekeeper');
    await expect(page).toHaveTitle('Sitekeeper');
  });

  await test.step('the service worker activates and controls the page', async () => {
    // clientsClaim() usually takes the page over at once; a reload covers the race where it has not yet.
    if (!(await pageIsControlled(page))) await page.reload();
    await expect.poll(() => pageIsControlled(page)).toBe(true);
  });

  await test.step('Chromium reports no installability errors', async () => {
    const cdp = await profile.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  });

  await test.step('offline, a reload renders from the precache', async () => {
    await profile.setOffline(true);
    await page.reload();
    await expect(heading).toHaveText('Sitekeeper');
  });
});
