import { z } from 'zod/mini';
import { defineAction } from '../action';
import { messages } from '../messages';
import { CmsModuleSchema } from '../permissions';
import { defineResource } from '../resource';

const required = messages.required.id;
const tooLong = messages.tooLong.id;

/** A website's life: requested (from /websites-form), live, in maintenance, switched off. Admins set it. */
export const WEBSITE_STATUSES = ['pending', 'active', 'maintenance', 'inactive'] as const;
export const WebsiteStatus = z.enum(WEBSITE_STATUSES);
export type WebsiteStatus = z.infer<typeof WebsiteStatus>;

const Domain = z._default(
  z.union([
    z.literal(''),
    z.pipe(
      z.string().check(z.trim(), z.toLowerCase(), z.maxLength(253, tooLong)),
      z.string().check(z.regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, messages.domainFormat.id)),
    ),
  ]),
  '',
);
const Reference = z._default(z.nullable(z.uuid()), null);
/** The website's page that shows a draft: an absolute http(s) address, or none. */
const PreviewAddress = z._default(z.string().check(z.trim(), z.maxLength(2000, tooLong), z.regex(/^(|https?:\/\/[^\s?#]+)$/i, messages.previewAddressFormat.id)), '');
const References = z._default(z.array(z.uuid()).check(z.maxLength(50, tooLong)), []);

/**
 * A managed website (spec §7 Websites): its owner, optionally a partner record, the catalog
 * entries it is described with, and the services it was composed of (`items`, priced by the
 * server for the partner's type). Its team reads it and, with the settings flag, edits it.
 */
export const websites = defineResource({
  name: 'websites',
  label: { one: /*i18n*/ { id: 'resource.website', message: 'website' }, other: /*i18n*/ { id: 'resource.websites', message: 'websites' } },
  scope: 'owner',
  owners: ['ownerId', 'partnerId'],
  websites: true,
  paths: { list: '/api/websites', item: '/api/websites/:id', stats: '/api/websites/stats' },
  image: { path: '/api/websites/:id/upload-preview', field: 'previewUrl' },
  title: 'name',
  fields: {
    name: z.string().check(z.trim(), z.minLength(1, required), z.maxLength(150, tooLong)),
    domain: Domain,
    description: z._default(z.string().check(z.trim(), z.maxLength(2000, tooLong)), ''),
    /** Where "Preview" opens a draft of a page, post or food menu (server/content/preview.ts). */
    previewAddress: PreviewAddress,
    ownerId: z.uuid(required),
    partnerId: Reference,
    status: z._default(WebsiteStatus, 'pending'),
    categoryId: Reference,
    subcategoryId: Reference,
    typeId: Reference,
    hostingId: Reference,
    technologyIds: References,
    languageIds: References,
    /** The priced service items it was composed of (services.ts `ServiceItem` ids). */
    items: z._default(z.array(z.string().check(z.maxLength(200, tooLong))).check(z.maxLength(100, tooLong)), []),
  },
  computed: {
    /** Where its preview image is served; null until one is uploaded. */
    previewUrl: z.nullable(z.string()),
    /** What its items cost for its partner's type, in cents of `currency`. */
    price: z.int(),
    currency: z.string(),
    /** The CMS modules its items include. */
    modules: z.array(CmsModuleSchema),
  },
  adminOnly: ['status'],
  filters: { categoryId: z.uuid(), subcategoryId: z.uuid(), status: WebsiteStatus, ownerId: z.uuid(), partnerId: z.uuid() },
  search: ['name', 'domain'],
  sort: ['name', 'domain', 'createdAt', 'updatedAt'],
  references: { ownerId: 'users', partnerId: 'partners', categoryId: 'categories', subcategoryId: 'subcategories', typeId: 'types', hostingId: 'hosting' },
});

/**
 * A website's key for the delivery API (spec §7 API key): shown whole once when made, stored as a
 * hash, afterwards known by its prefix. Making one again replaces it.
 */
export const apiKeys = defineResource({
  name: 'apiKeys',
  label: { one: /*i18n*/ { id: 'resource.apiKey', message: 'API key' }, other: /*i18n*/ { id: 'resource.apiKeys', message: 'API keys' } },
  scope: 'website',
  feature: 'settings',
  websiteParam: 'id',
  singleton: true,
  paths: { item: '/api/websites/:id/api-key' },
  title: 'prefix',
  fields: { isActive: z._default(z.boolean(), true) },
  computed: {
    prefix: z.string(),
    /** The whole key, in the answer that made it and never again. */
    key: z.optional(z.string()),
  },
  filters: {},
  search: [],
  sort: ['createdAt'],
});

/** The path parameters of a call on one website or account by its id (`/api/websites/:id/…`). */
const IdParams = z.object({ id: z.string() });

/** The websites the caller works on: those they own or partner, an admin's own included; a team member's one. */
export const myWebsites = defineAction({
  name: 'myWebsites',
  method: 'GET',
  path: '/api/websites/my-websites',
  policy: 'authenticated',
  summary: 'Lists the websites the signed-in account owns or partners; for a team member, their website.',
  query: websites.query,
  answer: z.array(websites.entity),
});

/** An owner's websites as an admin looks them up; an id that is no UUID is no owner (404). */
export const clientWebsites = defineAction({
  name: 'clientWebsites',
  method: 'GET',
  path: '/api/websites/client/:id',
  policy: 'admin',
  summary: 'Lists the websites one owner account owns.',
  params: IdParams,
  query: websites.query,
  answer: z.array(websites.entity),
});

/** Switched from the version the caller saw (If-Match), like every other change: a stale one is a conflict. */
export const toggleApiKey = defineAction({
  name: 'toggleApiKey',
  method: 'PATCH',
  path: '/api/websites/:id/api-key/toggle',
  policy: apiKeys.access.update,
  summary: 'Switches the website’s API key off, or on again.',
  params: IdParams,
  answer: apiKeys.entity,
});
