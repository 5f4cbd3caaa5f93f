import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandingProvider, useBranding } from './branding';

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
    expect(JSON.parse(localStorage.getItem('branding')!)).toEqual({ cmsName: 'Acme Websites', cmsLogoUrl: null });
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
