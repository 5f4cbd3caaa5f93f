import { msg } from '@lingui/core/macro';
import { users } from '../../contract/resources/accounts';
import type { Row } from '../../db/resource-store';
import type { Choice, Field, OptionSource } from '../resource/screen';

// What the admin area's screens share: the words for the fixed values of their records, and the
// accounts as a source of choices, for their lists, forms and pages.

/** Accounts, known by their email: an owner among thousands is found by what one types. */
export const accountSource: OptionSource = { resource: users, label: (row: Row) => String(row.email ?? '') };

/** A website's owner, chosen by admins: the websites' form and the website form of services alike. */
export const ownerField: Field & { kind: 'select' } = { name: 'ownerId', label: msg`Owner`, kind: 'select', source: accountSource, searchable: true };

/** The interface languages, each in its own words. */
export const interfaceLanguageChoices: readonly Choice[] = [
  { value: 'en', label: msg`English` },
  { value: 'de', label: msg`German` },
];

export const websiteStatusChoices: readonly Choice[] = [
  { value: 'pending', label: msg`Requested` },
  { value: 'active', label: msg`Live` },
  { value: 'maintenance', label: msg`In maintenance` },
  { value: 'inactive', label: msg`Switched off` },
];

export const partnerTypeChoices: readonly Choice[] = [
  { value: 'standard', label: msg`Standard` },
  { value: 'agency', label: msg`Agency` },
  { value: 'reseller', label: msg`Reseller` },
];

export const partnerStatusChoices: readonly Choice[] = [
  { value: 'active', label: msg`Active` },
  { value: 'inactive', label: msg`Inactive` },
];
