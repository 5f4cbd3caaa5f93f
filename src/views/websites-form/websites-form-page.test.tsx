import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import { findRoute } from '../../app/routes';
import type { ServiceItem } from '../../contract/resources/services';
import { websites } from '../../contract/resources/websites';
import { sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen } from '../resource/fake-store.test-support';
import { estimate, WebsitesForm, WebsitesFormPage } from './websites-form-page';

const SITE = '0190a1b2-0000-7000-8000-0000000000a1';
const CARE = '0190a1b2-0000-7000-8000-0000000000a2';
const partner = sessionUser({ type: 'partner', role: null });

/** The flattened rows of a package (with a feature and the restaurant menus) and a care plan, at a partner type's prices. */
function catalog(partnerType: string, language: string): Record<string, ServiceItem[]> {
  const agency = partnerType === 'agency';
  const item = (fields: Partial<ServiceItem> & Pick<ServiceItem, 'id' | 'serviceId' | 'kind' | 'name' | 'price'>): ServiceItem => ({
    serviceName: fields.serviceId === SITE ? 'Business website' : 'Care plan',
    serviceType: fields.serviceId === SITE ? 'package' : 'care',
    key: '',
    description: '',
    currency: 'EUR',
    ...fields,
  });
  return {
    '/api/services/flattened': [
      item({ id: SITE, serviceId: SITE, kind: 'service', name: 'Business website', price: agency ? 119_200 : 149_000, description: 'Ten pages' }),
      item({ id: CARE, serviceId: CARE, kind: 'service', name: 'Care plan', price: 59_000 }),
    ],
    '/api/services/flattened/features': [
      item({ id: `${SITE}:feature:seo`, serviceId: SITE, kind: 'feature', key: 'seo', name: language === 'de' ? 'Suchmaschinen-Einrichtung' : 'Search engine setup', price: 29_000 }),
    ],
    '/api/services/flattened/modules': [
      item({ id: `${SITE}:module:gastro`, serviceId: SITE, kind: 'module', key: 'gastro', name: language === 'de' ? 'Speisekarten' : 'Restaurant menus', price: 39_050 }),
    ],
  };
}

const fetchMock = vi.fn<typeof fetch>();

/** Serves the flattened lists for the partner type and language asked, and `partners` for the caller's partner records. */
function serve(partners: { status: number; body: unknown }) {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/partners/my-partners') return new Response(JSON.stringify(partners.body), { status: partners.status });
    const rows = catalog(url.searchParams.get('partnerType') ?? 'standard', url.searchParams.get('language') ?? 'en')[url.pathname];
    if (!rows) return new Response(JSON.stringify({ success: false, message: 'There is no such API endpoint' }), { status: 404 });
    return new Response(JSON.stringify({ success: true, data: rows }), { status: 200 });
  });
}
/** The caller's one partner record, of the agency type, as the server answers it. */
const agencyRecord = { _id: '0190a1b2-0000-7000-8000-0000000000b1', version: 1, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-01T10:00:00Z', name: 'Agency', type: 'agency', ownerId: '0190a1b2-0000-7000-8000-0000000000c1' };
const agencyRecords = { status: 200, body: { success: true, data: [agencyRecord] } };
const asked = (path: string) => fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(path));

function open(user = partner) {
  const fake = fakeStore({ websites: [] });
  const view = renderResourceScreen(<WebsitesForm title={msg`Website form`} />, fake.store, { path: '/websites-form', user });
  return { ...fake, ...view };
}
const total = () => screen.getByTestId('websites-form-total').textContent;
const check = (name: RegExp) => fireEvent.click(screen.getByRole('checkbox', { name }));

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('fetch', fetchMock);
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  fetchMock.mockReset();
});

describe('/websites-form', () => {
  it('is a page of its own for every signed-in user, loaded when asked for', async () => {
    const entry = findRoute('/websites-form');
    expect(entry.access).toBe('signedIn');
    expect(await entry.page?.preload?.()).toBe(WebsitesFormPage);
  });

  it('shows the services grouped by type at the partner’s prices and adds up what is chosen', async () => {
    serve(agencyRecords);
    open();
    const packages = await screen.findByRole('region', { name: 'Website packages' });
    expect(within(packages).getByText('Ten pages')).toBeDefined();
    expect(screen.getByRole('region', { name: 'Care plans' })).toBeDefined();
    // The partner's own type is asked for, in the interface language.
    expect(asked('/api/partners/my-partners')).toHaveLength(1);
    expect(asked('/api/services/flattened?')).toEqual(['/api/services/flattened?partnerType=agency&language=en']);
    expect(screen.getByText('An estimate at Agency prices: the price is confirmed when the website is saved.')).toBeDefined();

    expect(total()).toBe('€0.00');
    check(/Business website/);
    expect(total()).toBe('€1,192.00');
    check(/Restaurant menus/);
    check(/Care plan/);
    expect(total()).toBe('€2,172.50');
    check(/Business website/);
    expect(total()).toBe('€980.50');
  });

  it('counts a partner whose partner records cannot be read as standard', async () => {
    serve({ status: 500, body: { success: false, message: 'Something went wrong on the server. Please try again.' } });
    open();
    await screen.findByRole('region', { name: 'Website packages' });
    expect(asked('/api/services/flattened?')).toEqual(['/api/services/flattened?partnerType=standard&language=en']);
    check(/Business website/);
    expect(total()).toBe('€1,490.00');
  });

  it('asks an owner’s prices as standard without reading partner records, and writes money the German way', async () => {
    serve(agencyRecords);
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    open(sessionUser({ type: 'user', role: null }));
    expect(await screen.findByRole('checkbox', { name: /Suchmaschinen-Einrichtung/ })).toBeDefined();
    expect(asked('/api/partners/my-partners')).toHaveLength(0);
    expect(asked('/api/services/flattened/features?')).toEqual(['/api/services/flattened/features?partnerType=standard&language=de']);
    check(/Speisekarten/);
    check(/Suchmaschinen-Einrichtung/);
    // A feature or module may be chosen without its service: priced on its own.
    expect(total()?.replace(/\s/g, ' ')).toBe('680,50 €');
  });

  it('saves the website with its items through the store, and goes to the partner’s websites', async () => {
    serve(agencyRecords);
    const { spies, path } = open();
    await screen.findByRole('region', { name: 'Website packages' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeDefined();
    expect(spies.submit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Website name'), { target: { value: 'Trattoria' } });
    fireEvent.change(screen.getByLabelText('Domain'), { target: { value: 'Trattoria.example' } });
    check(/Business website/);
    check(/Restaurant menus/);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(path()).toBe('/user/websites'));
    expect(spies.submit).toHaveBeenCalledWith(websites, {
      kind: 'create',
      id: expect.any(String),
      values: expect.objectContaining({ name: 'Trattoria', domain: 'trattoria.example', items: [SITE, `${SITE}:module:gastro`] }),
    });
    expect(toast.success).toHaveBeenCalledWith('Website created successfully');
  });

  it('shows the server’s refusal of the items and stays', async () => {
    serve(agencyRecords);
    const { spies, path } = open();
    await screen.findByRole('region', { name: 'Website packages' });
    spies.submit.mockResolvedValueOnce({
      status: 'failed',
      message: 'Some fields are not valid',
      errors: [{ path: 'body.items', message: 'This entry does not exist (any more)' }],
    });
    fireEvent.change(screen.getByLabelText('Website name'), { target: { value: 'Trattoria' } });
    check(/Care plan/);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(await screen.findByText('This entry does not exist (any more)')).toBeDefined();
    expect(path()).toBe('/websites-form');
  });

  it('asks an admin for the website’s owner and leads back to all websites', async () => {
    serve(agencyRecords);
    const { path } = open(sessionUser());
    await screen.findByRole('region', { name: 'Website packages' });
    // Admins' prices are the standard ones; the owner is theirs to choose.
    expect(asked('/api/partners/my-partners')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Website name'), { target: { value: 'Trattoria' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeDefined();
    // What was typed is not left behind without asking.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(path()).toBe('/websites'));
  });

  it('tells a team member that only owners, partners and admins compose websites', () => {
    serve(agencyRecords);
    open(sessionUser({ type: 'teammember', role: null, websiteId: SITE }));
    expect(screen.getByText('Only website owners, partners and admins can put a website together.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('estimate', () => {
  const rows = catalog('standard', 'en');
  const items = Object.values(rows).flat();
  it('adds each chosen item once and knows no total for several currencies', () => {
    expect(estimate(items, [SITE, SITE, CARE])).toEqual({ cents: 208_000, currency: 'EUR' });
    expect(estimate(items, [])).toEqual({ cents: 0, currency: 'EUR' });
    expect(estimate([...items, { ...items[1]!, id: 'chf', currency: 'CHF' }], [SITE, 'chf'])).toBeNull();
  });
});
