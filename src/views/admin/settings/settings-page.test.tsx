import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandingProvider, useBranding } from '../../../api/branding';
import { toast } from '../../../machines/feedback';
import { clearLocalData, type WireRow } from '../../../db/database';
import { resourceStore } from '../../../db/device-store';
import { renderResourceScreen } from '../../resource/fake-store.test-support';
import { SettingsPage } from './settings-page';

const ID = '0190d6b0-0000-7000-8000-0000000005e1';
const at = '2026-01-01T10:00:00.000Z';
const LOGO = '/api/files/images/0190d6b0-0000-7000-8000-000000000001.webp';

/** The server's settings row and the calls made to it (GET/PUT /api/settings, the logo, the public brand). */
let current: WireRow;
let calls: { method: string; url: string; headers: Headers; body: unknown }[];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const call = { method: init?.method ?? 'GET', url: String(input), headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body };
  calls.push(call);
  const brand = { cmsName: String(current.cmsName) || 'Sitekeeper', cmsLogoUrl: current.cmsLogoUrl, helpUrl: current.helpUrl, supportUrl: current.supportUrl, defaultLanguage: current.defaultLanguage };
  if (call.url === '/api/white-label/config') return json({ success: true, data: brand });
  if (call.url === '/api/settings/logo') {
    current = { ...current, cmsLogoUrl: LOGO, version: current.version + 1 };
    return json({ success: true, data: current, message: 'Settings updated successfully' });
  }
  if (call.url !== '/api/settings') return json({ success: false, message: 'Not found' }, 404);
  if (call.method === 'GET') return json({ success: true, data: current });
  if (call.headers.get('If-Match') !== `"${current.version}"`) {
    return json({ success: false, message: 'Someone else changed the settings in the meantime.', data: current }, 409);
  }
  current = { ...current, ...(call.body as object), version: current.version + 1 };
  return json({ success: true, data: current, message: 'Settings updated successfully' });
}

/** The brand as the shell shows it. */
function Brand() {
  return <p data-testid="brand">{useBranding()?.cmsName ?? ''}</p>;
}

function openSettings() {
  return renderResourceScreen(
    <BrandingProvider>
      <Brand />
      <SettingsPage title={msg`Settings`} />
    </BrandingProvider>,
    resourceStore,
    { path: '/settings' },
  );
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const puts = () => calls.filter((call) => call.method === 'PUT');

beforeEach(async () => {
  await clearLocalData();
  current = { _id: ID, version: 1, createdAt: at, updatedAt: at, cmsName: 'Acme', helpUrl: '', supportUrl: '', defaultLanguage: 'en', mailFrom: '', cmsLogoUrl: null };
  calls = [];
  // A signed-in admin has the language of their account (stored at sign-in): a new default is not theirs.
  localStorage.setItem('language', 'en');
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('SettingsPage', () => {
  it('edits the one settings record, with hints, under the General and Services tabs', async () => {
    openSettings();

    await waitFor(() => expect(field('CMS name').value).toBe('Acme'));
    expect(calls.some((call) => call.method === 'GET' && call.url === '/api/settings')).toBe(true);
    expect(screen.getByText(/Empty: the product’s own name/)).toBeDefined();
    expect((screen.getByLabelText('Default language') as HTMLSelectElement).value).toBe('en');
    const tabs = screen.getByRole('navigation', { name: 'Settings section' });
    expect(within(tabs).getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    expect(within(tabs).getByRole('link', { name: 'Services' }).getAttribute('href')).toBe('/settings/services');
    expect(screen.getByText('No image yet')).toBeDefined();
  });

  it('saves with If-Match and re-brands the shell without a reload', async () => {
    openSettings();
    await waitFor(() => expect(field('CMS name').value).toBe('Acme'));
    await waitFor(() => expect(screen.getByTestId('brand').textContent).toBe('Acme'));

    fireEvent.change(field('CMS name'), { target: { value: 'Agentur Nord' } });
    fireEvent.change(screen.getByLabelText('Default language'), { target: { value: 'de' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings updated successfully'));
    expect(puts().map((call) => [call.url, call.headers.get('If-Match'), call.body])).toEqual([['/api/settings', '"1"', { cmsName: 'Agentur Nord', defaultLanguage: 'de' }]]);
    await waitFor(() => expect(screen.getByTestId('brand').textContent).toBe('Agentur Nord'));
    // The page stays, on what was saved, ready for the next change.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true));
    expect(field('CMS name').value).toBe('Agentur Nord');
    expect(i18n.locale).toBe('en');
  });

  it('uploads a logo, shows it in the shell’s brand, and a save after it continues from the version it made', async () => {
    openSettings();
    await waitFor(() => expect(field('CMS name').value).toBe('Acme'));

    const file = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Choose an image for Logo'), { target: { files: [file] } });

    await waitFor(() => expect(screen.getByRole('img', { name: 'Logo' }).getAttribute('src')).toBe(LOGO));
    const upload = calls.find((call) => call.url === '/api/settings/logo');
    expect(upload!.method).toBe('POST');
    expect((upload!.body as FormData).get('file')).toBe(file);
    // The brand was read again after the upload.
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/white-label/config')).toHaveLength(2));

    fireEvent.change(field('Support link'), { target: { value: 'mailto:help@agentur.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings updated successfully'));
    expect(puts().map((call) => call.headers.get('If-Match'))).toEqual(['"2"']);
    expect(current).toMatchObject({ supportUrl: 'mailto:help@agentur.example', cmsLogoUrl: LOGO, version: 3 });
  });

  it('shows a conflict with someone else’s change like every other form', async () => {
    openSettings();
    await waitFor(() => expect(field('CMS name').value).toBe('Acme'));
    current = { ...current, cmsName: 'Theirs', version: 2 };

    fireEvent.change(field('CMS name'), { target: { value: 'Mine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const conflict = await screen.findByRole('alert');
    expect(within(conflict).getByText('Theirs: Theirs · Yours: Mine')).toBeDefined();
    fireEvent.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Settings updated successfully'));
    expect(puts().map((call) => call.headers.get('If-Match'))).toEqual(['"1"', '"2"']);
    expect(current.cmsName).toBe('Mine');
  });
});
