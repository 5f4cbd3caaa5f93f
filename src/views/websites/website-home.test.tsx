import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalData } from '../../db/database';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { sessionUser } from '../render-screen.test-support';
import { WebsiteHome } from './website-home';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const uuid = (n: number) => `0190a1b2-0000-7000-8000-${String(n).padStart(12, '0')}`;

beforeEach(async () => {
  await clearLocalData();
  localStorage.clear();
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ success: true, data: null }))));
});
afterEach(() => vi.restoreAllMocks());

describe('a website’s home', () => {
  it('names the website’s technologies and languages, never counts them', async () => {
    const { store } = fakeStore({
      websites: [row({ id: SITE, name: 'Trattoria Demo', domain: 'trattoria-demo.example', status: 'active', technologyIds: [uuid(1), uuid(2)], languageIds: [uuid(3)], modules: [] })],
      technologies: [row({ id: uuid(1), name: 'Astro' }), row({ id: uuid(2), name: 'WordPress' })],
      languages: [row({ id: uuid(3), name: 'German', code: 'de' })],
    });
    const { resourceStore } = await import('../../db/device-store');
    for (const method of ['cachedList', 'fetchList', 'cachedRecord', 'fetchRecord'] as const) vi.spyOn(resourceStore, method).mockImplementation(store[method] as never);
    renderResourceScreen(<WebsiteHome id={SITE} />, store, { user: sessionUser({ type: 'user', role: 'user' }) });

    const details = await screen.findByText('Technologies').then((term) => term.closest('dl')!);
    const value = (term: string) => within(details).getByText(term).nextElementSibling?.textContent;
    await vi.waitFor(() => expect(value('Technologies')).toBe('Astro, WordPress'));
    expect(value('Languages')).toBe('German');
  });
});
