// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCT_NAME } from '../../contract/branding';
import { createTestApp } from '../../../tests/support/app';
import { storeKinds } from '../../../tests/support/store';
import { settings } from '../store/schema';
import { WHITE_LABEL_KEY } from './white-label';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

describe.each(storeKinds)('GET /api/white-label/config (%s)', (kind) => {
  async function configWith(value: Record<string, unknown> | null) {
    const { app, store } = await createTestApp({ kind });
    opened.push(app);
    if (value) await store.db.insert(settings).values({ key: WHITE_LABEL_KEY, value });
    const res = await app.inject({ method: 'GET', url: '/api/white-label/config' });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('answers the default product name when no configuration exists', async () => {
    expect(await configWith(null)).toEqual({ success: true, data: { cmsName: DEFAULT_PRODUCT_NAME, cmsLogoUrl: null } });
  });

  it('answers "CMS" for a configuration without a name', async () => {
    expect((await configWith({ cmsLogoUrl: 'https://example.com/logo.svg' })).data).toEqual({
      cmsName: 'CMS',
      cmsLogoUrl: 'https://example.com/logo.svg',
    });
    expect((await configWith({ cmsName: '   ' })).data.cmsName).toBe('CMS');
  });

  it('answers the configured name and logo', async () => {
    expect((await configWith({ cmsName: 'Agentur Nord', cmsLogoUrl: '' })).data).toEqual({ cmsName: 'Agentur Nord', cmsLogoUrl: null });
  });
});
