import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandingProvider } from '../../api/branding';
import { Footer, footerLinks } from './footer';

const HELP = 'https://help.example';
const SUPPORT = 'mailto:support@example.test';

describe('footerLinks (spec §2)', () => {
  it.each([
    ['the settings’ two addresses', { helpUrl: HELP, supportUrl: SUPPORT }, {}, { help: HELP, support: SUPPORT }],
    ['the build’s where the settings have none', { helpUrl: '', supportUrl: '' }, { help: HELP, support: SUPPORT }, { help: HELP, support: SUPPORT }],
    ['the settings’ over the build’s', { helpUrl: 'https://own.example', supportUrl: '' }, { help: HELP, support: SUPPORT }, { help: 'https://own.example', support: SUPPORT }],
    ['the support address for both when it is the only one', { helpUrl: '', supportUrl: SUPPORT }, {}, { help: SUPPORT, support: SUPPORT }],
    ['the help address for both when it is the only one', null, { help: HELP }, { help: HELP, support: HELP }],
  ])('leads to %s', (_case, branding, build, expected) => {
    expect(footerLinks(branding, build)).toEqual(expected);
  });

  it('offers no link when no address is configured anywhere', () => {
    expect(footerLinks({ helpUrl: '', supportUrl: '' }, {})).toBeNull();
    expect(footerLinks(null, { help: '', support: '' })).toBeNull();
  });
});

/** The footer under the brand this device kept (the server cannot be reached). */
async function renderFooter(branding: { helpUrl: string; supportUrl: string }) {
  localStorage.setItem('branding', JSON.stringify({ cmsName: 'Agentur Nord', cmsLogoUrl: null, defaultLanguage: 'en', ...branding }));
  render(
    <I18nProvider i18n={i18n}>
      <BrandingProvider>
        <Footer />
      </BrandingProvider>
    </I18nProvider>,
  );
  await act(async () => {});
}

const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('Footer', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
  });
  afterEach(() => localStorage.clear());

  it('shows Help Center and Support from the settings, falling back to the build’s addresses', async () => {
    vi.stubEnv('VITE_HELP_URL', 'https://build-help.example');
    vi.stubEnv('VITE_SUPPORT_URL', 'mailto:build@example.test');
    await renderFooter({ helpUrl: '', supportUrl: SUPPORT });

    expect(screen.getByText(/Agentur Nord/)).toBeDefined();
    expect([href('Help Center'), href('Support')]).toEqual(['https://build-help.example', SUPPORT]);
  });

  it('shows both links with the one address there is', async () => {
    await renderFooter({ helpUrl: HELP, supportUrl: '' });

    expect([href('Help Center'), href('Support')]).toEqual([HELP, HELP]);
  });

  it('shows neither link when nothing is configured', async () => {
    await renderFooter({ helpUrl: '', supportUrl: '' });

    expect(screen.queryByRole('navigation', { name: 'Help' })).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
