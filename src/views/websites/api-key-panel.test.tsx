import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockedServer, renderScreen } from '../render-screen.test-support';
import { ApiKeyPanel } from './api-key-panel';

const SITE = '0190a1b2-0000-7000-8000-0000000000f1';
const fetchMock = mockedServer();

// The panel reads the key straight from the server (use-server-read.ts): three answers, three states.
describe('a website’s API key panel', () => {
  it('shows the key by its prefix and state, never whole', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: { _id: SITE, version: 2, createdAt: '2026-11-26T08:00:00.000Z', updatedAt: '2026-11-26T08:00:00.000Z', prefix: 'skp_AbC1', isActive: false } }));
    renderScreen(<ApiKeyPanel websiteId={SITE} />);
    expect(await screen.findByText('skp_AbC1…')).toBeTruthy();
    expect(screen.getByText('Switched off')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make a new key' })).toBeTruthy();
  });

  it('offers to make one when the website has none (the server’s 404)', async () => {
    fetchMock.mockResolvedValue(json({ success: false, message: 'Not found' }, 404));
    renderScreen(<ApiKeyPanel websiteId={SITE} />);
    expect(await screen.findByText('This website has no API key yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make a key' })).toBeTruthy();
  });

  it('without a connection says so and offers nothing to change', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderScreen(<ApiKeyPanel websiteId={SITE} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    // Settled after the failed read: not taken for "no key" (a 404), which offers to make one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('The key can be seen and changed only with a connection.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: 'Delivery API reference' })).toBeTruthy();
  });
});
