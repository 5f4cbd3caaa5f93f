import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandingProvider, refreshBranding, useBranding } from './branding';

function Brand() {
  return <p>{useBranding()?.cmsName ?? '(loading)'}</p>;
}

const ok = (cmsName: string) => new Response(JSON.stringify({ success: true, data: { cmsName, cmsLogoUrl: null } }));

describe('BrandingProvider', () => {
  beforeEach(() => localStorage.clear());

  it('shows the brand seen last time at once, then the server’s, which it keeps for next time', async () => {
    localStorage.setItem('branding', JSON.stringify({ cmsName: 'Acme CMS', cmsLogoUrl: null }));
    let answer!: (response: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    );

    render(<BrandingProvider><Brand /></BrandingProvider>);
    expect(screen.getByText('Acme CMS')).toBeDefined();

    await act(async () => answer(ok('Acme Websites')));
    expect(screen.getByText('Acme Websites')).toBeDefined();
    expect(JSON.parse(localStorage.getItem('branding')!)).toMatchObject({ cmsName: 'Acme Websites', cmsLogoUrl: null });
  });

  it('keeps the stored brand when the server cannot be reached, and uses the default only without one', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    localStorage.setItem('branding', JSON.stringify({ cmsName: 'Acme CMS', cmsLogoUrl: null }));
    const { unmount } = render(<BrandingProvider><Brand /></BrandingProvider>);
    await act(async () => {});
    expect(screen.getByText('Acme CMS')).toBeDefined();
    unmount();

    localStorage.clear();
    render(<BrandingProvider><Brand /></BrandingProvider>);
    expect(screen.getByText('(loading)')).toBeDefined();
    expect(await screen.findByText('Sitekeeper')).toBeDefined();
    expect(localStorage.getItem('branding')).toBeNull();
  });
});

describe('refreshBranding', () => {
  beforeEach(() => localStorage.clear());

  it('makes the provider read the brand again, so a saved name shows without a reload', async () => {
    const fetchMock = vi.fn(async () => ok('Acme CMS')).mockResolvedValueOnce(ok('Acme CMS')).mockResolvedValueOnce(ok('Agentur Nord'));
    vi.stubGlobal('fetch', fetchMock);
    render(<BrandingProvider><Brand /></BrandingProvider>);
    expect(await screen.findByText('Acme CMS')).toBeDefined();

    act(() => refreshBranding());

    expect(await screen.findByText('Agentur Nord')).toBeDefined();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(JSON.parse(localStorage.getItem('branding')!)).toMatchObject({ cmsName: 'Agentur Nord' });
  });

  it('takes the brand another tab stored', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    localStorage.setItem('branding', JSON.stringify({ cmsName: 'Acme CMS', cmsLogoUrl: null }));
    render(<BrandingProvider><Brand /></BrandingProvider>);

    localStorage.setItem('branding', JSON.stringify({ cmsName: 'Agentur Nord', cmsLogoUrl: null }));
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'branding' })));

    expect(await screen.findByText('Agentur Nord')).toBeDefined();
  });
});
