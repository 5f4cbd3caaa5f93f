import { z } from 'zod/mini';
import { defineAction } from '../action';
import { Email } from '../auth';
import { messages } from '../messages';
import { defineResource } from '../resource';

const required = messages.required.id;
const tooLong = messages.tooLong.id;

/** What kind of partnership a partner record has; it selects the prices of services (spec §7 "pricing per partner type"). */
export const PARTNER_TYPES = ['standard', 'agency', 'reseller'] as const;
export const PartnerType = z.enum(PARTNER_TYPES);
export type PartnerType = z.infer<typeof PartnerType>;
/** The prices of whoever has no partner record of another type. */
export const DEFAULT_PARTNER_TYPE: PartnerType = 'standard';

export const PARTNER_STATUSES = ['active', 'inactive'] as const;
export const PartnerStatus = z.enum(PARTNER_STATUSES);

const Text = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, tooLong)), '');
/** An address to write to, or nothing. */
const OptionalEmail = z._default(z.union([z.literal(''), Email]), '');
/** An http(s) address, or nothing. */
export const OptionalUrl = z._default(
  z.union([z.literal(''), z.string().check(z.trim(), z.maxLength(500, tooLong), z.regex(/^https?:\/\/[^\s/$.?#][^\s]*$/i, messages.urlFormat.id))]),
  '',
);

/**
 * A partner record (spec §7 Partners): the business an owner or partner works as, owned by one
 * account. Its type and status are the admin's to set: the type decides what services cost.
 */
export const partners = defineResource({
  name: 'partners',
  label: { one: /*i18n*/ { id: 'resource.partner', message: 'partner' }, other: /*i18n*/ { id: 'resource.partners', message: 'partners' } },
  scope: 'owner',
  owners: ['ownerId'],
  paths: { list: '/api/partners', item: '/api/partners/:id', stats: '/api/partners/stats' },
  title: 'name',
  fields: {
    name: z.string().check(z.trim(), z.minLength(1, required), z.maxLength(150, tooLong)),
    type: z._default(PartnerType, DEFAULT_PARTNER_TYPE),
    status: z._default(PartnerStatus, 'active'),
    email: OptionalEmail,
    phone: Text(50),
    website: OptionalUrl,
    address: Text(500),
    ownerId: z.uuid(required),
  },
  adminOnly: ['type', 'status'],
  filters: { status: PartnerStatus, type: PartnerType, ownerId: z.uuid() },
  search: ['name', 'email'],
  sort: ['name', 'createdAt', 'updatedAt'],
  references: { ownerId: 'users' },
});

/**
 * The caller's own partner records, admins' too: the sidebar's Settings link (spec §2) and the
 * prices of a partner's websites are about them.
 */
export const myPartners = defineAction({
  name: 'myPartners',
  method: 'GET',
  path: '/api/partners/my-partners',
  policy: 'authenticated',
  summary: 'Lists the partner records the signed-in account owns.',
  query: partners.query,
  answer: z.array(partners.entity),
});
