import { i18n } from '@lingui/core';
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { LoginPage } from '../views/auth/login-page';
import { AppProviders } from './providers';

const german = () => new Response(JSON.stringify({ success: true, data: { cmsName: 'Agentur Nord', cmsLogoUrl: null, defaultLanguage: 'de' } }));

/** The sign-in page in the app's providers, under a brand whose default language is German. */
function openLogin() {
  const fetchMock = vi.fn(async () => german());
  vi.stubGlobal('fetch', fetchMock);
  const location = memoryLocation({ path: '/login' });
  render(
    <Router hook={location.hook}>
      <AppProviders>
        <LoginPage />
      </AppProviders>
    </Router>,
  );
  return fetchMock;
}

describe('the default interface language (spec §9)', () => {
  beforeEach(() => localStorage.clear());

  it('speaks the settings’ default language to a visitor who never chose one, on the sign-in page too, without storing it as a choice', async () => {
    const fetchMock = openLogin();

    expect(await screen.findByRole('heading', { name: 'Anmelden' })).toBeDefined();
    expect(i18n.locale).toBe('de');
    expect(localStorage.getItem('language')).toBeNull();
    // Switched in place: one read of the brand, no reload and no second round.
    await act(async () => {});
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('leaves a visitor’s own choice alone', async () => {
    localStorage.setItem('language', 'en');
    openLogin();

    expect(await screen.findByText('Agentur Nord')).toBeDefined();
    expect(i18n.locale).toBe('en');
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeDefined();
  });
});
