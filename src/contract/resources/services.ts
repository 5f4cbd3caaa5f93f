import { z } from 'zod/mini';
import { defineAction } from '../action';
import { INTERFACE_LANGUAGES, type InterfaceLanguage } from '../languages';
import { messages } from '../messages';
import { CMS_MODULES, CmsModuleSchema, type CmsModule } from '../permissions';
import { defineResource, optionalQuery } from '../resource';
import { LanguageContent } from './catalogs';
import { DEFAULT_PARTNER_TYPE, PartnerType } from './partners';

// Services priced per partner type (spec §7 "Other"): the admin keeps them, with their features,
// the CMS modules they bring and a price per partner type; /websites-form composes a website from
// them. Money is whole cents everywhere, never a float.

const required = messages.required.id;
const tooLong = messages.tooLong.id;
const invalid = messages.invalidValue.id;

export const SERVICE_TYPES = ['package', 'addon', 'hosting', 'care'] as const;
export const ServiceType = z.enum(SERVICE_TYPES);
export type ServiceType = z.infer<typeof ServiceType>;

/** The currency of a service nobody chose one for. */
export const DEFAULT_CURRENCY = 'EUR';
/** The dearest price a service, feature or module may have: a million in cents, far inside an integer. */
export const MAX_CENTS = 100_000_000;

/** An amount in cents of the service's currency. */
// Missing is "required"; anything but a whole number ("49.5", text) is "not valid".
export const Cents = z.int({ error: (issue) => (issue.input === undefined ? required : invalid) }).check(z.minimum(0, invalid), z.maximum(MAX_CENTS, invalid));

/**
 * A price per partner type, in cents: `standard` always, the others when they differ. A type
 * without its own price pays the standard one.
 */
export const Prices = z.object({ standard: Cents, agency: z.optional(Cents), reseller: z.optional(Cents) });
export type Prices = z.infer<typeof Prices>;

/** What `prices` cost a partner of `type`: its own price, else the standard one. */
export function priceFor(prices: Prices, type: PartnerType): number {
  return prices[type] ?? prices.standard;
}

const Name = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(150, tooLong));
/** An ISO 4217 code; left empty (a form's blank), the server stores the default one. */
const Currency = z.union([z.literal(''), z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z]{3}$/, invalid))]);

/** A feature's key: part of its item id (`<serviceId>:feature:<key>`), so no colon and no spaces. */
export const FeatureKey = z.string().check(z.trim(), z.toLowerCase(), z.regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, invalid));

/** One thing a service can include at its own price (a contact form, a second language). */
export const ServiceFeature = z.object({
  key: FeatureKey,
  name: z.object({ en: Name, de: z._default(z.string().check(z.trim(), z.maxLength(150, tooLong)), '') }),
  prices: Prices,
});
export type ServiceFeature = z.infer<typeof ServiceFeature>;

/** A CMS module a service can bring at its own price (the restaurant menus). */
export const ServiceModule = z.object({ module: CmsModuleSchema, prices: Prices });
export type ServiceModule = z.infer<typeof ServiceModule>;

/** No two entries of a list with the same key: an item id must name one of them. */
const distinct = <T>(keyOf: (entry: T) => string) =>
  z.refine<T[]>((entries) => new Set(entries.map(keyOf)).size === entries.length, { message: messages.valueTaken.id });

export const services = defineResource({
  name: 'services',
  label: { one: /*i18n*/ { id: 'resource.service', message: 'service' }, other: /*i18n*/ { id: 'resource.services', message: 'services' } },
  scope: 'global',
  access: { read: 'authenticated', write: 'admin' },
  title: 'name',
  paths: { list: '/api/services', item: '/api/services/:id', stats: '/api/services/stats' },
  fields: {
    /** English; the title. */
    name: Name,
    /** Its name in other languages: `{ de: { name } }`. */
    content: z._default(LanguageContent, {}),
    description: z._default(z.string().check(z.trim(), z.maxLength(2000, tooLong)), ''),
    type: z._default(ServiceType, 'package'),
    prices: Prices,
    currency: z._default(Currency, DEFAULT_CURRENCY),
    features: z._default(z.array(ServiceFeature).check(z.maxLength(50, tooLong), distinct((feature: ServiceFeature) => feature.key)), []),
    modules: z._default(
      z.array(ServiceModule).check(z.maxLength(CMS_MODULES.length, tooLong), distinct((module: ServiceModule) => module.module)),
      [],
    ),
    /** Offered in the website form; an inactive service stays on the websites that have it. */
    active: z._default(z.boolean(), true),
    /** Where it stands among the services (ascending), in the admin's list and the website form. */
    order: z._default(z.int(invalid).check(z.minimum(0, invalid), z.maximum(1_000_000, invalid)), 0),
  },
  computed: {
    /** What it costs the partner type the list was asked for (`?partnerType=`); only then. */
    price: z.optional(z.int()),
  },
  queryOptions: { partnerType: PartnerType },
  filters: { type: ServiceType, active: z.stringbool() },
  search: ['name', 'description'],
  sort: ['order', 'name', 'createdAt', 'updatedAt'],
  unique: ['name'],
});

// Priced items: what a website is composed of (its `items`).

export const SERVICE_ITEM_KINDS = ['service', 'feature', 'module'] as const;
export type ServiceItemKind = (typeof SERVICE_ITEM_KINDS)[number];

/** One priced item, as its id names it. */
export type ServiceItemRef =
  | { kind: 'service'; serviceId: string }
  | { kind: 'feature'; serviceId: string; key: string }
  | { kind: 'module'; serviceId: string; module: CmsModule };

/** An item's id: the service's id, or `<serviceId>:feature:<key>`, or `<serviceId>:module:<module>`. */
export function serviceItemId(ref: ServiceItemRef): string {
  switch (ref.kind) {
    case 'service':
      return ref.serviceId;
    case 'feature':
      return `${ref.serviceId}:feature:${ref.key}`;
    case 'module':
      return `${ref.serviceId}:module:${ref.module}`;
  }
}

/** What an item id names, or null for one no service could have. */
export function parseServiceItemId(id: string): ServiceItemRef | null {
  const [serviceId = '', kind, key, ...rest] = id.split(':');
  if (!z.uuid().safeParse(serviceId).success || rest.length > 0) return null;
  if (kind === undefined) return { kind: 'service', serviceId };
  if (kind === 'feature' && key && FeatureKey.safeParse(key).data === key) return { kind: 'feature', serviceId, key };
  if (kind === 'module' && (CMS_MODULES as readonly string[]).includes(key ?? '')) return { kind: 'module', serviceId, module: key as CmsModule };
  return null;
}

/**
 * A row of `/api/services/flattened[/features|/modules]`: one priced item of an active service,
 * named in the asked language, priced for the asked partner type. `key`: the feature's key or the
 * module; empty for a service.
 */
export const ServiceItemSchema = z.object({
  id: z.string(),
  serviceId: z.string(),
  serviceName: z.string(),
  serviceType: ServiceType,
  kind: z.enum(SERVICE_ITEM_KINDS),
  key: z.string(),
  name: z.string(),
  /** The service's description (English, as the admin wrote it); empty for features and modules. */
  description: z.string(),
  price: z.int(),
  currency: z.string(),
});
export type ServiceItem = z.infer<typeof ServiceItemSchema>;

/** `?partnerType` (default standard) and `?language` (en | de, default en) of the flattened lists; empty means not given (spec §5). */
export const ServiceItemsQuery = z.object({
  partnerType: z._default(optionalQuery(PartnerType), DEFAULT_PARTNER_TYPE),
  language: z._default(optionalQuery(z.enum(INTERFACE_LANGUAGES)), 'en' satisfies InterfaceLanguage),
});

/** `?partnerType` of `GET /api/services/{id}/price` (default standard). */
export const ServicePriceQuery = z.object({ partnerType: ServiceItemsQuery.shape.partnerType });

/** `GET /api/services/{id}/price`: what the service costs a partner type. */
export const ServicePriceSchema = z.object({ serviceId: z.string(), partnerType: PartnerType, price: z.int(), currency: z.string() });
export type ServicePrice = z.infer<typeof ServicePriceSchema>;

/** Whoever may read the services may read their prices. */
export const getServicePrice = defineAction({
  name: 'getServicePrice',
  method: 'GET',
  path: '/api/services/:id/price',
  policy: services.access.get,
  summary: 'What a service costs a partner type.',
  params: z.object({ id: z.string() }),
  query: ServicePriceQuery,
  answer: ServicePriceSchema,
});

/** The priced items of one kind of every active service, in the services' order: what the website form offers. */
const flattened = (name: string, path: string, summary: string) =>
  defineAction({ name, method: 'GET', path, policy: services.access.get, summary, query: ServiceItemsQuery, answer: z.array(ServiceItemSchema) });

export const SERVICE_ITEM_LISTS = {
  service: flattened('listServiceItems', '/api/services/flattened', 'The active services, named in a language and priced for a partner type.'),
  feature: flattened('listFeatureItems', '/api/services/flattened/features', 'The features of the active services, named in a language and priced for a partner type.'),
  module: flattened('listModuleItems', '/api/services/flattened/modules', 'The CMS modules of the active services, named in a language and priced for a partner type.'),
} as const satisfies Record<ServiceItemKind, unknown>;

/** Items of several currencies cannot be summed: the website's items must share one. */
export const mixedCurrencies = /*i18n*/ {
  id: 'field.mixedCurrencies',
  message: 'These services are priced in different currencies; choose services of one currency.',
};
