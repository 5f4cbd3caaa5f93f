import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { HomePage } from './home-page';

const fetchMock = vi.fn<typeof fetch>();

function renderHome() {
  return render(
    <AppProviders>
      <HomePage />
    </AppProviders>,
  );
}

function respond(body: string, status = 200) {
  fetchMock.mockImplementation(async () => new Response(body, { status }));
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  document.title = 'before';
});

describe('HomePage', () => {
  it('shows the white-label name and logo from the server and titles the document', async () => {
    respond(JSON.stringify({ success: true, data: { cmsName: 'Acme CMS', cmsLogoUrl: '/media/acme.png' } }));
    const { container } = renderHome();

    expect(await screen.findByRole('heading', { level: 1, name: 'Acme CMS' })).toBeDefined();
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/media/acme.png');
    expect(document.title).toBe('Acme CMS');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/white-label/config');
  });

  it('shows no logo when the configuration has none', async () => {
    respond(JSON.stringify({ success: true, data: { cmsName: 'Acme CMS', cmsLogoUrl: null } }));
    const { container } = renderHome();

    await screen.findByRole('heading', { level: 1, name: 'Acme CMS' });
    expect(container.querySelector('img')).toBeNull();
  });

  it.each([
    ['a server error', () => respond(JSON.stringify({ success: false, message: 'Boom' }), 500)],
    ['a malformed configuration', () => respond(JSON.stringify({ success: true, data: { cmsName: 42 } }))],
    ['a network failure', () => fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))],
  ])('falls back to the default branding without a message on %s', async (_case, arrange) => {
    arrange();
    renderHome();

    expect(await screen.findByRole('heading', { level: 1, name: 'Sitekeeper' })).toBeDefined();
    expect(document.title).toBe('Sitekeeper');
    expect(screen.queryByText(/Boom|failed|error/i)).toBeNull();
  });
});
