import { z } from 'zod/mini';
import { defineAction } from '../action';
import { LanguageCodeSchema } from '../auth';
import { WhiteLabelConfigSchema } from '../branding';
import { messages } from '../messages';
import { defineResource } from '../resource';

const tooLong = messages.tooLong.id;

/** A link in the footer: a web address or a `mailto:` one; empty hides nothing, it falls back (branding.ts). */
const FooterLink = z._default(
  z.union([z.literal(''), z.string().check(z.trim(), z.maxLength(500, tooLong), z.regex(/^(https?:\/\/[^\s/$.?#][^\s]*|mailto:[^\s@]+@[^\s@]+)$/i, messages.urlFormat.id))]),
  '',
);
/** `Name <address>` or a bare address; empty: the server's MAIL_FROM. */
const Sender = z._default(
  z.union([z.literal(''), z.string().check(z.trim(), z.maxLength(254, tooLong), z.regex(/^([^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, messages.senderFormat.id))]),
  '',
);

/**
 * The installation's settings (/settings, admins only): one record. The white-label name and logo
 * and the footer links are public through `GET /api/white-label/config`; the rest stays here.
 */
export const settings = defineResource({
  name: 'settings',
  label: { one: /*i18n*/ { id: 'resource.settings', message: 'settings' }, other: /*i18n*/ { id: 'resource.settingsPlural', message: 'settings' } },
  scope: 'global',
  access: { read: 'admin', write: 'admin' },
  singleton: true,
  paths: { item: '/api/settings' },
  image: { path: '/api/settings/logo', field: 'cmsLogoUrl' },
  title: 'cmsName',
  fields: {
    /** Empty: the product's own name, or "CMS" once a logo is set (spec §1). */
    cmsName: z._default(z.string().check(z.trim(), z.maxLength(100, tooLong)), ''),
    helpUrl: FooterLink,
    supportUrl: FooterLink,
    /** The interface language of visitors who have not chosen one, and of new accounts. */
    defaultLanguage: z._default(LanguageCodeSchema, 'en'),
    mailFrom: Sender,
  },
  computed: { cmsLogoUrl: z.nullable(z.string()) },
  filters: {},
  search: [],
  sort: ['updatedAt'],
});

/** Public: the sign-in page shows the brand before anyone signs in. */
export const getWhiteLabelConfig = defineAction({
  name: 'getWhiteLabelConfig',
  method: 'GET',
  path: '/api/white-label/config',
  policy: 'public',
  summary: 'The installation’s brand: its name and logo, the footer’s links and the language of visitors who chose none.',
  answer: WhiteLabelConfigSchema,
});
