import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FormField } from '../../../contract/resources/contact-forms';
import { alphabetical } from './collation';
import { entityColumns } from './columns';
import { websites } from './tenancy';

// A website's contact forms (spec §7), on the pattern of schema/cms.ts: every table carries its
// website, and a submission reaches its form through the composite key (website, form), so it
// can never belong to a form of another website.

const websiteColumn = () =>
  uuid('website_id')
    .notNull()
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' });

export const smtpSecurity = pgEnum('smtp_security', ['starttls', 'tls', 'none']);
export const submissionMailStatus = pgEnum('submission_mail_status', ['pending', 'sent']);

export const contactForms = pgTable(
  'contact_forms',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    recipientEmail: text('recipient_email').notNull().default(''),
    fields: jsonb('fields').$type<FormField[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [unique('contact_forms_website_key').on(t.websiteId, t.id), index('contact_forms_name_idx').on(t.websiteId, alphabetical(t.name), sql`id`)],
);

export type SubmittedField = { name: string; label: string; value: string | number | boolean };

/**
 * What a visitor sent, with the fields' labels as they were, and its mail: pending until the
 * website's mail server took it. A sender claims a due row for `claimed_until` (so no other sender
 * takes it meanwhile), then marks it sent or sets its next attempt.
 */
export const contactSubmissions = pgTable(
  'contact_submissions',
  {
    ...entityColumns,
    websiteId: websiteColumn(),
    formId: uuid('form_id').notNull(),
    values: jsonb('values').$type<SubmittedField[]>().notNull(),
    summary: text('summary').notNull().default(''),
    handled: boolean('handled').notNull().default(false),
    mailStatus: submissionMailStatus('mail_status').notNull().default('pending'),
    mailAttempts: integer('mail_attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    foreignKey({ name: 'contact_submissions_form_fk', columns: [t.websiteId, t.formId], foreignColumns: [contactForms.websiteId, contactForms.id] }).onDelete('cascade'),
    index('contact_submissions_form_idx').on(t.formId, t.createdAt, t.id),
    // The sender's question, "which mails are due?", reads only the pending rows.
    index('contact_submissions_due_idx').on(t.nextAttemptAt).where(sql`${t.mailStatus} = 'pending'`),
  ],
);

/** A website's outgoing mail server; the password encrypted with APP_SECRET (auth/encryption.ts), bound to the website. */
export const smtpSettings = pgTable('smtp_settings', {
  ...entityColumns,
  websiteId: websiteColumn().unique('smtp_settings_website_key'),
  host: text('host').notNull(),
  port: integer('port').notNull().default(587),
  security: smtpSecurity('security').notNull().default('starttls'),
  username: text('username').notNull().default(''),
  passwordEncrypted: text('password_encrypted'),
  fromEmail: text('from_email').notNull(),
  fromName: text('from_name').notNull().default(''),
});

/** The mail a website's submissions make; empty parts use the default. */
export const mailTemplates = pgTable('mail_templates', {
  ...entityColumns,
  websiteId: websiteColumn().unique('mail_templates_website_key'),
  subject: text('subject').notNull().default(''),
  body: text('body').notNull().default(''),
});
