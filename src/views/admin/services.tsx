import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { currencyOf, formatMoney } from '../../components/intl-formats';
import type { Prices } from '../../contract/resources/services';
import { services } from '../../contract/resources/services';
import type { Row } from '../../db/resource-store';
import { screenPages } from '../resource/screen-pages';
import type { Choice, ResourceScreen } from '../resource/screen';
import { SettingsTabs } from './settings/settings-tabs';

// Spec §7 "Other": the services a website is composed of, with their features, CMS modules and a
// price per partner type, kept by admins under /settings/services; as data for the generic screens.

export const serviceTypeChoices: readonly Choice[] = [
  { value: 'package', label: msg`Website package` },
  { value: 'addon', label: msg`Add-on` },
  { value: 'hosting', label: msg`Hosting` },
  { value: 'care', label: msg`Care plan` },
];

/** The standard price, as the interface language writes money. */
const standardPrice = (row: Row) => {
  const prices = row.prices as Prices | undefined;
  return prices ? formatMoney(prices.standard, currencyOf(row), i18n.locale) : '';
};

export const servicesScreen = {
  resource: services,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'type', label: msg`Type`, format: 'choice', choices: serviceTypeChoices },
    { key: 'prices', label: msg`Standard price`, text: standardPrice },
    { key: 'active', label: msg`Offered`, text: (row) => (row.active ? '✓' : '–') },
    { key: 'order', label: msg`Position`, sortable: true },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'name', label: msg`Name (English)`, kind: 'text' },
    { name: 'content', label: msg`Names in other languages`, kind: 'translations' },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
    { name: 'type', label: msg`Type`, kind: 'choice', choices: serviceTypeChoices },
    { name: 'prices', label: msg`Price per partner type`, kind: 'prices' },
    { name: 'currency', label: msg`Currency`, kind: 'text', hint: msg`A three-letter code such as CHF; left empty, EUR.` },
    { name: 'features', label: msg`Features`, kind: 'serviceFeatures' },
    { name: 'modules', label: msg`CMS modules`, kind: 'serviceModules' },
    { name: 'order', label: msg`Position`, kind: 'integer' },
    { name: 'active', label: msg`Offered in the website form`, kind: 'checkbox' },
  ],
  filters: [
    { key: 'type', label: msg`Type`, choices: serviceTypeChoices },
    {
      key: 'active',
      label: msg`Offered`,
      choices: [
        { value: 'true', label: msg`Offered` },
        { value: 'false', label: msg`Not offered` },
      ],
    },
  ],
  routes: { list: '/settings/services', create: '/settings/services/new', edit: (id: string) => `/settings/services/edit/${id}` },
} satisfies ResourceScreen;

const pages = screenPages(servicesScreen, <SettingsTabs />);
export const ServicesPage = pages.List;
export const ServiceNewPage = pages.New;
export const ServiceEditPage = pages.Edit;
