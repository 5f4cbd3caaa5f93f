import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SessionUser } from '../api/session';
import { clearLocalData } from '../db/database';
import { toast } from '../machines/feedback';

/** Renders a screen at `path` in memory; `path()` tells where it navigated since. */
export function renderScreen(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const location = memoryLocation({ path, record: true });
  // A wrapper, so rerender() keeps the providers.
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>
      <Router hook={location.hook}>{children}</Router>
    </I18nProvider>
  );
  const result = render(ui, { wrapper });
  return { ...result, path: () => location.history.at(-1), navigate: location.navigate };
}

export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: '0190a1b2-0000-7000-8000-0000000000aa',
    email: 'anna@example.test',
    username: 'anna',
    type: 'admin',
    role: 'admin',
    verified: true,
    status: 'active',
    firstName: 'Anna',
    lastName: 'Berg',
    language: 'en',
    websiteId: null,
    roleInfo: null,
    ...overrides,
  };
}

/** An API answer as the server sends it. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A screen test's server: `fetch` answered by the mock it returns, and before each test the
 * device's data, storage and the mock emptied and toasts kept quiet (spied on, to be asserted).
 */
export function mockedServer() {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(async () => {
    await clearLocalData();
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());
  return fetchMock;
}
