// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCT_NAME } from '../../contract/branding';
import { createTestApp } from '../../../tests/support/app';
import { storeKinds } from '../../../tests/support/store';
import { appSettings } from '../store/schema';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

describe.each(storeKinds)('GET /api/white-label/config (%s)', (kind) => {
  async function configWith(values: Partial<typeof appSettings.$inferInsert>) {
    const { app, store } = await createTestApp({ kind });
    opened.push(app);
    if (Object.keys(values).length > 0) await store.db.update(appSettings).set(values);
    const res = await app.inject({ method: 'GET', url: '/api/white-label/config' });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('answers the default product name while nothing is configured', async () => {
    expect(await configWith({})).toEqual({
      success: true,
      data: { cmsName: DEFAULT_PRODUCT_NAME, cmsLogoUrl: null, helpUrl: '', supportUrl: '', defaultLanguage: 'en' },
    });
  });

  it('answers "CMS" for a configuration with a logo but no name', async () => {
    const key = 'images/0195f0b4-0000-7000-8000-000000000000.webp';
    expect((await configWith({ cmsLogoKey: key })).data).toMatchObject({ cmsName: 'CMS', cmsLogoUrl: `/api/files/${key}` });
  });

  it('answers the configured name, footer links and default language', async () => {
    expect((await configWith({ cmsName: 'Agentur Nord', helpUrl: 'https://help.example', supportUrl: 'mailto:s@x.example', defaultLanguage: 'de' })).data).toEqual({
      cmsName: 'Agentur Nord',
      cmsLogoUrl: null,
      helpUrl: 'https://help.example',
      supportUrl: 'mailto:s@x.example',
      defaultLanguage: 'de',
    });
  });
});
