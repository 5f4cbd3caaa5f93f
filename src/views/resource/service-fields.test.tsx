import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import { findRoute } from '../../app/routes';
import { services } from '../../contract/resources/services';
import { servicesScreen } from '../admin/services';
import { fakeStore, renderResourceScreen, row } from './fake-store.test-support';
import { preloadFieldKinds } from './field-kinds';
import { moneyText, parseMoney } from './money';
import { ResourceFormPage } from './resource-form';
import { keyOf } from './service-fields';

const CARE = '0190a1b2-0000-7000-8000-0000000000c2';

const type = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
const group = (name: string) => screen.getByRole('group', { name });

describe('parseMoney', () => {
  it.each([
    ['49', 4900],
    ['49.00', 4900],
    ['49,00', 4900],
    ['49,5', 4950],
    ['0.99', 99],
    [' 1490 ', 149_000],
    ['1.490,50', 149_050],
    ['1,490.50', 149_050],
    ['1.490', 149_000],
    ['1 490,00 €', 149_000],
    ["1'490.00", 149_000],
    ['€ 12', 1200],
    ['1,234,567.89', 123_456_789],
  ])('reads %j as %d cents', (text, cents) => {
    expect(parseMoney(text)).toBe(cents);
  });

  it.each(['', 'abc', '49.9999', '-5', '49.', '.5', '1.490.00', '1,490,00', '1.49.0', '12a'])('refuses %j', (text) => {
    expect(parseMoney(text)).toBeNull();
  });

  it('shows cents with the locale’s decimal mark and no grouping, as an input takes them again', () => {
    expect(moneyText(149_050, 'en')).toBe('1490.50');
    expect(moneyText(4900, 'de')).toBe('49,00');
    expect(parseMoney(moneyText(149_050, 'de'))).toBe(149_050);
  });

  it('makes a feature key from its English name', () => {
    expect(keyOf('Table booking (Café)')).toBe('table-booking-cafe');
  });
});

describe('the service form', () => {
  it('is the admin’s, under /settings/services, each page a chunk of its own', () => {
    for (const path of ['/settings/services', '/settings/services/new', `/settings/services/edit/${CARE}`]) {
      const entry = findRoute(path);
      expect(entry.access).toBe('admin');
      expect(entry.page?.preload).toBeTypeOf('function');
    }
    expect(findRoute('/settings/services/new').title.message).toBe('New service');
  });

  beforeEach(async () => {
    localStorage.clear();
    for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
    // The prices, features and modules are field kinds of their own chunk, as the app's form loads them.
    await preloadFieldKinds(servicesScreen.fields);
  });
  afterEach(() => vi.restoreAllMocks());

  it('takes money as typed, with either decimal mark, and stores cents per partner type, feature and module', async () => {
    const { store, spies } = fakeStore({ services: [] });
    const { path } = renderResourceScreen(<ResourceFormPage screen={servicesScreen} title={msg`New service`} id={null} />, store, { path: '/settings/services/new' });

    type(document.body, 'Name (English)', 'Restaurant package');
    const prices = group('Price per partner type');
    type(prices, 'Standard', '1.490,00');
    type(prices, 'Agency', '1190.5');
    // An empty type pays the standard price, and says so.
    expect((within(prices).getByLabelText('Reseller') as HTMLInputElement).placeholder).toBe('As standard (1490.00)');

    fireEvent.click(screen.getByRole('button', { name: 'Add feature' }));
    const feature = group('Feature 1');
    type(feature, 'Name (English)', 'Table booking');
    type(feature, 'Name (German)', 'Tischreservierung');
    expect((within(feature).getByLabelText('Key') as HTMLInputElement).value).toBe('table-booking');
    type(group('Table booking'), 'Standard', '240');

    const modules = group('CMS modules');
    fireEvent.click(within(modules).getByRole('checkbox', { name: 'Gastronomy menus' }));
    type(modules, 'Standard', '390,90');
    type(document.body, 'Position', '20');
    fireEvent.click(screen.getByLabelText('Offered in the website form'));

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(path()).toBe('/settings/services'));
    expect(spies.submit).toHaveBeenCalledWith(services, {
      kind: 'create',
      id: expect.any(String),
      values: {
        name: 'Restaurant package',
        content: {},
        description: '',
        type: 'package',
        prices: { standard: 149_000, agency: 119_050 },
        // Left empty: the server stores the default currency.
        currency: '',
        features: [{ key: 'table-booking', name: { en: 'Table booking', de: 'Tischreservierung' }, prices: { standard: 24_000 } }],
        modules: [{ module: 'gastro', prices: { standard: 39_090 } }],
        order: 20,
        active: true,
      },
    });
  });

  it('marks what is no amount and saves nothing until it is one', async () => {
    const { store, spies } = fakeStore({ services: [] });
    renderResourceScreen(<ResourceFormPage screen={servicesScreen} title={msg`New service`} id={null} />, store, { path: '/settings/services/new' });
    type(document.body, 'Name (English)', 'Hosting');
    const prices = group('Price per partner type');
    type(prices, 'Standard', 'forty-nine');
    expect(within(prices).getByText('Enter an amount such as 49.00')).toBeDefined();
    expect(within(prices).getByLabelText('Standard').getAttribute('aria-invalid')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(prices).findByText('This value is not valid')).toBeDefined();
    expect(spies.submit).not.toHaveBeenCalled();

    type(prices, 'Standard', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(prices).findByText('This field is required')).toBeDefined();
    expect(spies.submit).not.toHaveBeenCalled();
  });

  it('shows a stored service’s cents as money in the interface language, and sends only what changed', async () => {
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    const care = row({
      id: CARE,
      name: 'Care plan',
      content: {},
      type: 'care',
      prices: { standard: 59_000, reseller: 41_300 },
      currency: 'EUR',
      features: [],
      modules: [{ module: 'pages', prices: { standard: 0 } }],
      active: true,
      order: 3,
    });
    const { store, spies } = fakeStore({ services: [care] });
    renderResourceScreen(<ResourceFormPage screen={servicesScreen} title={msg`Edit service`} id={CARE} />, store, { path: `/settings/services/edit/${CARE}` });
    const prices = await screen.findByRole('group', { name: 'Price per partner type' });
    await waitFor(() => expect((within(prices).getByLabelText('Standard') as HTMLInputElement).value).toBe('590,00'));
    expect((within(prices).getByLabelText('Reseller') as HTMLInputElement).value).toBe('413,00');
    expect((within(group('CMS modules')).getByRole('checkbox', { name: 'Pages' }) as HTMLInputElement).checked).toBe(true);

    type(prices, 'Reseller', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    expect(spies.submit).toHaveBeenCalledWith(services, { kind: 'update', id: CARE, values: { prices: { standard: 59_000 } }, baseVersion: 1 });
  });
});
