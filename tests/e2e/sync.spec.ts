import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedAccount, signIn } from './sign-in';

/** Queues a create in the outbox as db/outbox.ts stores it, straight into IndexedDB. */
function queueCreate(page: Page, title: string): Promise<string> {
  return page.evaluate(async (name) => {
    // Runs in the page: it cannot use a function from this file's scope.
    // oxlint-disable-next-line unicorn/consistent-function-scoping
    const settled = (request: IDBRequest | IDBTransaction, event: 'success' | 'complete') =>
      new Promise<void>((resolve, reject) => {
        request.addEventListener(event, () => resolve());
        request.addEventListener('error', () => reject(request.error));
      });
    const id = crypto.randomUUID();
    const open = indexedDB.open('sitekeeper');
    await settled(open, 'success');
    const tx = open.result.transaction('outbox', 'readwrite');
    tx.objectStore('outbox').add({
      resource: 'categories',
      entityId: id,
      kind: 'create',
      method: 'POST',
      path: '/api/categories',
      itemPath: `/api/categories/${id}`,
      body: { name, description: '', _id: id },
      idempotencyKey: crypto.randomUUID(),
      baseVersion: null,
      status: 'pending',
      attempts: 0,
      createdAt: Date.now(),
      label: { item: 'category', title: name },
      fallback: 'Failed to create category',
    });
    await settled(tx, 'complete');
    open.result.close();
    return id;
  }, title);
}

function outboxCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const open = indexedDB.open('sitekeeper');
    await new Promise((resolve) => open.addEventListener('success', resolve));
    const count = open.result.transaction('outbox').objectStore('outbox').count();
    await new Promise((resolve) => count.addEventListener('success', resolve));
    open.result.close();
    return count.result;
  });
}

test('the service worker replays the outbox when the page asks, and the panel shows what the server refused', async ({ profile, server }) => {
  const page = profile.pages()[0] ?? (await profile.newPage());
  await page.setViewportSize({ width: 360, height: 740 });
  const account = await seedAccount(server, 'admin');
  await signIn(page, server, account);
  await expect(page).toHaveURL(/\/$/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');

  const sent: { url: string; fromWorker: boolean }[] = [];
  profile.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/categories')) sent.push({ url: request.url(), fromWorker: request.serviceWorker() !== null });
  });

  const name = `Drinks ${Date.now()}`;
  await queueCreate(page, name);
  await queueCreate(page, name); // The same name again: the server refuses it (400, name taken).

  const status = page.locator('button[aria-controls="sync-panel"]');
  await status.click();
  const panel = page.locator('#sync-panel');
  await expect(panel).toBeVisible();
  await panel.locator('button').last().click(); // Sync now

  await expect(panel.locator('li[data-status="failed"]')).toHaveCount(1);
  expect(await outboxCount(page)).toBe(1);
  expect(sent).toHaveLength(2);
  expect(sent.every((request) => request.fromWorker)).toBe(true);
  await expect(status).toHaveAttribute('data-state', 'attention');

  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const list = await page.request.get(`/api/categories?search=${encodeURIComponent(name)}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await list.json()) as { data: { name: string }[] }).data.map((row) => row.name)).toEqual([name]);

  await page.screenshot({ path: test.info().outputPath('sync-panel-360.png') });
  const panelBox = await panel.boundingBox();
  expect(panelBox!.x).toBeGreaterThanOrEqual(0);
  expect(panelBox!.x + panelBox!.width).toBeLessThanOrEqual(360);

  // Discard: nothing left to send.
  await panel.locator('li[data-status="failed"] button').last().click();
  await expect.poll(() => outboxCount(page)).toBe(0);
  await expect(status).toHaveAttribute('data-state', 'synced');
});
