import type { MessageDescriptor } from '@lingui/core';
import { z } from 'zod/mini';
import { defineAction } from '../action';
import { messages } from '../messages';
import { MODULES } from '../modules';
import { defineResource } from '../resource';

// A website's webhooks (ADR 026): addresses told of its changes as they are committed, signed as
// the Standard Webhooks specification says, retried for a day, and the log of every delivery.

const required = messages.required.id;
const tooLong = messages.tooLong.id;

/** What a change of a module's content is to a receiver: it went live, changed otherwise, or went. */
export const CONTENT_ACTIONS = ['published', 'updated', 'deleted'] as const;
export type ContentAction = (typeof CONTENT_ACTIONS)[number];

/**
 * Modules whose every change is one event of their own: a food menu is read whole (its categories,
 * dishes and allergens make one menu), so a receiver is told that the menu changed.
 */
const WHOLE_MODULES: Readonly<Partial<Record<(typeof MODULES)[number]['key'], string>>> = { gastro: 'gastro.menuChanged' };
/** A visitor's form arriving: the one event that is no change of content. */
export const FORM_SUBMITTED = 'form.submitted';
/** What "Send test" sends; never chosen, always allowed. */
export const TEST_EVENT = 'webhook.test';

/** Every event a webhook may be told of, made from the modules: content events per module, then the few of their own. */
export const WEBHOOK_EVENTS = [
  ...MODULES.flatMap((module) => WHOLE_MODULES[module.key] ?? CONTENT_ACTIONS.map((action) => `${module.key}.${action}`)),
  FORM_SUBMITTED,
] as readonly string[] as readonly [string, ...string[]];
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);

/** The event a module's change is, by what it did to the content. */
export const contentEvent = (module: string, action: ContentAction): string => WHOLE_MODULES[module as keyof typeof WHOLE_MODULES] ?? `${module}.${action}`;

const contentWords: Readonly<Record<ContentAction, MessageDescriptor>> = {
  published: /*i18n*/ { id: 'webhookEvent.published', message: '{module}: published' },
  updated: /*i18n*/ { id: 'webhookEvent.updated', message: '{module}: changed' },
  deleted: /*i18n*/ { id: 'webhookEvent.deleted', message: '{module}: deleted' },
};
const ownWords: Readonly<Record<string, MessageDescriptor>> = {
  [FORM_SUBMITTED]: /*i18n*/ { id: 'webhookEvent.formSubmitted', message: 'A form was sent' },
  'gastro.menuChanged': /*i18n*/ { id: 'webhookEvent.menuChanged', message: 'A food menu changed' },
  [TEST_EVENT]: /*i18n*/ { id: 'webhookEvent.test', message: 'Test' },
};

/** An event in words, for client and server alike (`t` of either side). */
export function eventText(event: string, t: (descriptor: MessageDescriptor, values?: Record<string, string>) => string): string {
  const own = ownWords[event];
  if (own) return t(own);
  const [key, action] = event.split('.');
  const module = MODULES.find((candidate) => candidate.key === key);
  const words = contentWords[action as ContentAction];
  return module && words ? t(words, { module: t(module.name) }) : event;
}

export const webhookMessages = {
  urlFormat: /*i18n*/ { id: 'field.webhookUrlFormat', message: 'Use an address starting with http:// or https://' },
  addressRefused: /*i18n*/ { id: 'field.webhookAddressRefused', message: 'This address is in a private network or on this server; webhooks cannot be sent there.' },
  eventsRequired: /*i18n*/ { id: 'field.webhookEventsRequired', message: 'Choose at least one event' },
  testSent: /*i18n*/ { id: 'webhook.testSent', message: 'The test was delivered ({status}).' },
  testFailed: /*i18n*/ { id: 'webhook.testFailed', message: 'The test was not delivered.' },
  secretRenewed: /*i18n*/ { id: 'webhook.secretRenewed', message: 'A new secret was made; the old one no longer signs anything.' },
} satisfies Record<string, MessageDescriptor>;

/** Where a webhook is sent: an absolute http(s) address, without credentials in it. */
const Url = z.string().check(
  z.trim(),
  z.minLength(1, required),
  z.maxLength(2000, tooLong),
  z.refine((text) => {
    const url = URL.canParse(text) ? new URL(text) : null;
    return url !== null && ['http:', 'https:'].includes(url.protocol) && !url.username && !url.password && url.hostname !== '';
  }, webhookMessages.urlFormat.id),
);

/**
 * A website's webhook. Its secret (`whsec_…`) is made by the server, stored encrypted and shown
 * once: in the answer that made it, and in the answer of `renewWebhookSecret`. `disabledAt`: when
 * the server switched it off after a day of failed deliveries (its owner was mailed); `last…`: how
 * its latest delivery went.
 */
export const webhooks = defineResource({
  name: 'webhooks',
  label: { one: /*i18n*/ { id: 'resource.webhook', message: 'webhook' }, other: /*i18n*/ { id: 'resource.webhooks', message: 'webhooks' } },
  scope: 'website',
  feature: 'settings',
  paths: { list: '/api/websites/:websiteId/webhooks', item: '/api/websites/:websiteId/webhooks/:webhookId' },
  title: 'url',
  fields: {
    url: Url,
    events: z.array(WebhookEvent).check(z.minLength(1, webhookMessages.eventsRequired.id), z.maxLength(WEBHOOK_EVENTS.length, tooLong)),
    isActive: z._default(z.boolean(), true),
  },
  computed: {
    /** The signing secret, in the answer that made it and never again. */
    secret: z.optional(z.string()),
    disabledAt: z.nullable(z.iso.datetime({ offset: true })),
    lastDeliveryAt: z.nullable(z.iso.datetime({ offset: true })),
    /** The receiver's status code; null: no answer (see `lastError`). */
    lastStatusCode: z.nullable(z.int()),
    lastError: z.nullable(z.string()),
  },
  filters: { isActive: z.stringbool() },
  search: ['url'],
  sort: ['createdAt', 'url'],
});

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
/** Why an attempt got no status code: the address was refused (private), no answer in time, no connection. */
export const ATTEMPT_ERRORS = ['refused', 'timeout', 'network'] as const;
export const AttemptError = z.enum(ATTEMPT_ERRORS);
export const Attempt = z.object({ at: z.iso.datetime({ offset: true }), statusCode: z.nullable(z.int()), error: z.nullable(AttemptError), durationMs: z.int() });
export type Attempt = z.infer<typeof Attempt>;

/** One event for one webhook, with its attempts: pending while it is retried, then delivered or failed. Only the server writes it. */
export const webhookDeliveries = defineResource({
  name: 'webhookDeliveries',
  label: { one: /*i18n*/ { id: 'resource.webhookDelivery', message: 'delivery' }, other: /*i18n*/ { id: 'resource.webhookDeliveries', message: 'deliveries' } },
  scope: 'website',
  feature: 'settings',
  operations: ['list', 'get'],
  paths: { list: '/api/websites/:websiteId/webhook-deliveries', item: '/api/websites/:websiteId/webhook-deliveries/:deliveryId' },
  title: 'event',
  fields: { webhookId: z.uuid(), event: z.string(), status: DeliveryStatus },
  computed: {
    attempts: z.array(Attempt),
    lastAttemptAt: z.nullable(z.iso.datetime({ offset: true })),
    lastStatusCode: z.nullable(z.int()),
    lastDurationMs: z.nullable(z.int()),
  },
  filters: { webhookId: z.uuid(), status: DeliveryStatus },
  search: [],
  sort: ['createdAt'],
  defaultOrder: 'desc',
});

const WebhookParams = z.object({ websiteId: z.string(), webhookId: z.string() });

/** "Send test": one signed `webhook.test` now, logged like any delivery and never retried. */
export const testWebhook = defineAction({
  name: 'testWebhook',
  method: 'POST',
  path: '/api/websites/:websiteId/webhooks/:webhookId/test',
  policy: webhooks.access.update,
  summary: 'Sends a signed test event to the webhook now and answers how the receiver answered.',
  params: WebhookParams,
  answer: webhookDeliveries.entity,
  failed: webhookMessages.testFailed,
});

/** A new signing secret, shown once; the old one stops signing at once. */
export const renewWebhookSecret = defineAction({
  name: 'renewWebhookSecret',
  method: 'POST',
  path: '/api/websites/:websiteId/webhooks/:webhookId/secret',
  policy: webhooks.access.update,
  summary: 'Makes a new signing secret for the webhook and answers it, once.',
  params: WebhookParams,
  answer: webhooks.entity,
});
