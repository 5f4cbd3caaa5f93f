import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Attempt } from '../../../contract/resources/webhooks';
import { entityColumns } from './columns';
import { websites } from './tenancy';

// A website's webhooks (ADR 026): the webhooks, the events waiting to be fanned out to them (put
// there by a trigger on `revisions`, in the change's own transaction) and each event's delivery
// to each webhook, which is both the sender's queue and the log a person reads.

const websiteColumn = () =>
  uuid('website_id')
    .notNull()
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' });

/** A moment an answer shows (ISO 8601 on the wire). */
const shownMoment = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** The secret encrypted with APP_SECRET (auth/encryption.ts), bound to the website; `last_…` kept by the sender. */
export const webhooks = pgTable(
  'webhooks',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    url: text('url').notNull(),
    events: text('events').array().notNull().default(sql`'{}'`),
    isActive: boolean('is_active').notNull().default(true),
    secretEncrypted: text('secret_encrypted').notNull(),
    disabledAt: shownMoment('disabled_at'),
    lastDeliveryAt: shownMoment('last_delivery_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
  },
  (t) => [unique('webhooks_website_key').on(t.websiteId, t.id)],
);

/**
 * A revision of a website with an active webhook, not yet turned into deliveries: the trigger's
 * queue (migration 0019). Which event it is, and for which webhooks, the sender decides from the
 * registry when it claims it.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    revisionId: uuid('revision_id').notNull(),
    websiteId: uuid('website_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_created_idx').on(t.createdAt)],
);

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['pending', 'delivered', 'failed']);

/**
 * One event for one webhook: the signed body as it is sent every time (its id is the message's
 * `webhook-id`), pending until delivered or a day of attempts failed. A sender claims a due row
 * for `claimed_until` (no other sender takes it meanwhile) and writes the outcome while that holds.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    webhookId: uuid('webhook_id').notNull(),
    event: text('event').notNull(),
    payload: text('payload').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    attempts: jsonb('attempts').$type<Attempt[]>().notNull().default([]),
    lastAttemptAt: shownMoment('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    foreignKey({ name: 'webhook_deliveries_webhook_fk', columns: [t.websiteId, t.webhookId], foreignColumns: [webhooks.websiteId, webhooks.id] }).onDelete('cascade'),
    unique('webhook_deliveries_website_key').on(t.websiteId, t.id),
    index('webhook_deliveries_log_idx').on(t.websiteId, t.createdAt),
    // The sender's question, "which deliveries are due?", reads only the pending rows.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);
