import { z } from 'zod/mini';
import { defineAction, WebsiteParams } from '../action';
import { messages } from '../messages';
import { defineResource } from '../resource';

// A website's contact forms (spec §7 Contact forms): the forms with their fields, the visitors'
// submissions to each, and two records of one per website: the outgoing mail server (SMTP) the
// submissions are mailed through and the mail's template. Visitors post to the delivery API
// (server/routes/form-submissions.ts); nobody signed in makes a submission.

const required = messages.required.id;
const tooLong = messages.tooLong.id;

const text = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, tooLong)), '');
const Name = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(200, tooLong));
/** An address, or nothing (the HTML input's own rule, as `Email` in contract/auth.ts). */
const OptionalEmail = z._default(
  z.string().check(z.trim(), z.maxLength(254, tooLong), z.regex(new RegExp(`^$|${z.regexes.html5Email.source}`), messages.emailFormat.id)),
  '',
);
const Email = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(254, tooLong), z.regex(z.regexes.html5Email, messages.emailFormat.id));

/** What a visitor types into a field; `checkbox` is a tick (a required one: consent), `select` one of its options. */
export const FORM_FIELD_TYPES = ['text', 'email', 'tel', 'number', 'date', 'textarea', 'select', 'checkbox'] as const;
export const FormFieldType = z.enum(FORM_FIELD_TYPES);

/** The longest value a visitor may send per type; a textarea holds a message, the rest a line. */
export const FORM_VALUE_LIMITS: Readonly<Record<(typeof FORM_FIELD_TYPES)[number], number>> = {
  text: 500,
  email: 254,
  tel: 50,
  number: 50,
  date: 10,
  textarea: 5000,
  select: 200,
  checkbox: 5,
};

/**
 * One field of a form. `name` is its key in a submission and in the mail template (`{{email}}`);
 * left empty, the server makes one from the label.
 */
export const FormField = z
  .object({
    name: z._default(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(40, tooLong), z.regex(/^([a-z][a-z0-9_]*)?$/, messages.formFieldNameFormat.id)), ''),
    label: Name,
    type: z._default(FormFieldType, 'text'),
    required: z._default(z.boolean(), false),
    /** The choices of a `select`; ignored for other types. */
    options: z._default(z.array(z.string().check(z.trim(), z.minLength(1, required), z.maxLength(200, tooLong))).check(z.maxLength(50, tooLong)), []),
  })
  .check(z.refine((field) => field.type !== 'select' || field.options.length > 0, { message: messages.formOptionsRequired.id, path: ['options'] }));
export type FormField = z.output<typeof FormField>;

/** No two fields of a form share a name they were given (the server makes the missing ones unique). */
const FormFields = z
  .array(FormField)
  .check(
    z.maxLength(50, tooLong),
    z.refine((fields) => {
      const named = fields.map((field) => field.name).filter(Boolean);
      return new Set(named).size === named.length;
    }, { message: messages.formFieldNameTaken.id }),
  );

export const contactForms = defineResource({
  name: 'contactForms',
  label: { one: /*i18n*/ { id: 'resource.contactForm', message: 'contact form' }, other: /*i18n*/ { id: 'resource.contactForms', message: 'contact forms' } },
  scope: 'website',
  module: 'contactForms',
  // Spec §7: the item path names the form alone; its website is the row's.
  paths: { list: '/api/cms/contact-forms/:websiteId', item: '/api/cms/contact-forms/form/:formId' },
  title: 'name',
  fields: {
    name: Name,
    description: text(1000),
    /** Where its submissions are mailed; empty: the sender address of the website's SMTP settings. */
    recipientEmail: OptionalEmail,
    fields: z._default(FormFields, []),
    /** A switched-off form takes no submissions (the delivery API answers 404). */
    isActive: z._default(z.boolean(), true),
  },
  filters: { isActive: z.stringbool() },
  search: ['name'],
  sort: ['name', 'createdAt', 'updatedAt'],
});

/** A submitted value: text, a number, or a tick. */
export const SubmittedValue = z.union([z.string(), z.number(), z.boolean()]);
export const MAIL_STATUSES = ['pending', 'sent'] as const;
export const MailStatus = z.enum(MAIL_STATUSES);

/**
 * What a visitor sent through a form, with the fields' labels as they were then. The mail is sent
 * after it is stored: `mailStatus` stays `pending` (retried, with `mailAttempts` so far) until the
 * website's mail server took it. Made only by the delivery API; a person marks it handled.
 */
export const contactSubmissions = defineResource({
  name: 'contactSubmissions',
  label: { one: /*i18n*/ { id: 'resource.contactSubmission', message: 'submission' }, other: /*i18n*/ { id: 'resource.contactSubmissions', message: 'submissions' } },
  scope: 'website',
  module: 'contactForms',
  createdBy: 'visitor',
  parent: { param: 'formId', resource: 'contactForms' },
  paths: { list: '/api/cms/contact-forms/form/:formId/submissions', item: '/api/cms/contact-forms/form/:formId/submissions/:submissionId' },
  title: 'summary',
  fields: { handled: z._default(z.boolean(), false) },
  computed: {
    formId: z.uuid(),
    values: z.array(z.object({ name: z.string(), label: z.string(), value: SubmittedValue })),
    /** The first address or line of the submission: how a person tells it from others. */
    summary: z.string(),
    mailStatus: MailStatus,
    mailAttempts: z.int(),
    sentAt: z.nullable(z.iso.datetime({ offset: true })),
  },
  filters: { handled: z.stringbool(), mailStatus: MailStatus },
  search: ['summary'],
  sort: ['createdAt', 'summary'],
});

export const SMTP_SECURITIES = ['starttls', 'tls', 'none'] as const;
export const SmtpSecurity = z.enum(SMTP_SECURITIES);
/** A host name or an IP address (IPv6 without brackets), never a URL. */
const Host = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, required),
  z.maxLength(253, tooLong),
  z.regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|[0-9a-f:.]*:[0-9a-f:.]*)$/, messages.smtpHostFormat.id),
);

/**
 * The mail server a website's submissions (and its test mail) go out through. The password is
 * taken, stored encrypted, and never answered: `hasPassword` says whether one is kept. An update
 * without it keeps the one stored; an empty one removes it.
 */
export const smtpSettings = defineResource({
  name: 'smtpSettings',
  label: { one: /*i18n*/ { id: 'resource.smtpSettings', message: 'SMTP configuration' }, other: /*i18n*/ { id: 'resource.smtpSettingsPlural', message: 'SMTP configurations' } },
  saveFailed: messages.smtpSaveFailed,
  scope: 'website',
  module: 'contactForms',
  singleton: true,
  paths: { item: '/api/cms/contact-forms/:websiteId/smtp' },
  title: 'host',
  fields: {
    host: Host,
    port: z._default(z.int().check(z.minimum(1, messages.invalidValue.id), z.maximum(65535, messages.invalidValue.id)), 587),
    /** `tls`: TLS from the start (usually port 465); `starttls`: plain, then TLS before anything is sent (587); `none`: no TLS. */
    security: z._default(SmtpSecurity, 'starttls'),
    username: text(254),
    fromEmail: Email,
    fromName: text(200),
  },
  secret: { password: z.optional(z.string().check(z.maxLength(500, tooLong))) },
  computed: { hasPassword: z.optional(z.boolean()) },
  filters: {},
  search: [],
  sort: ['updatedAt'],
});

/**
 * Spec §7: a real mail through the saved settings. Its body names whom to send it to (the caller's
 * own address when left out). Whatever goes wrong answers the same fixed failure.
 */
export const testSmtp = defineAction({
  name: 'testSmtp',
  method: 'POST',
  path: '/api/cms/contact-forms/:websiteId/smtp/test',
  policy: smtpSettings.access.update,
  summary: 'Sends a test mail through the website’s saved SMTP settings, to the caller or to `to`.',
  params: WebsiteParams,
  body: z.object({ to: z.optional(Email) }),
  answer: z.object({ to: z.string() }),
  failed: messages.smtpTestFailed,
});

/**
 * The mail a submission makes. `{{name}}` stands for the value of the field of that name,
 * `{{fields}}` for every field with its label, `{{form}}` for the form's name and `{{date}}` for
 * when it was sent. Empty: the default (a subject naming the form, a body listing the fields).
 */
export const mailTemplates = defineResource({
  name: 'mailTemplates',
  label: { one: /*i18n*/ { id: 'resource.mailTemplate', message: 'email template' }, other: /*i18n*/ { id: 'resource.mailTemplates', message: 'email templates' } },
  scope: 'website',
  module: 'contactForms',
  singleton: true,
  paths: { item: '/api/cms/contact-forms/:websiteId/template' },
  title: 'subject',
  fields: { subject: text(300), body: text(20_000) },
  filters: {},
  search: [],
  sort: ['updatedAt'],
});

// The delivery API's side of contact forms (server/routes/form-submissions.ts): a website reads a
// form's fields to show it, and posts what its visitor typed, with its key in X-API-Key.

const FormParams = z.object({ formId: z.string() });

export const publicForm = defineAction({
  name: 'publicForm',
  method: 'GET',
  path: '/api/public/forms/:formId',
  policy: contactSubmissions.access.create,
  summary: 'A contact form that takes submissions, with its fields, for the website to show.',
  params: FormParams,
  answer: z.object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    fields: z.array(z.object({ name: z.string(), label: z.string(), type: FormFieldType, required: z.boolean(), options: z.array(z.string()) })),
  }),
});

export const submitForm = defineAction({
  name: 'submitForm',
  method: 'POST',
  path: '/api/public/forms/:formId/submissions',
  policy: contactSubmissions.access.create,
  summary: 'Stores what a visitor sent through a contact form; its mail follows.',
  params: FormParams,
  body: z
    .record(z.string(), z.unknown())
    .check(z.describe('The values by field name (`GET /api/public/forms/{formId}` lists the fields): text, a number, or true for a ticked checkbox.')),
  answer: z.object({ id: z.uuid(), createdAt: z.iso.datetime({ offset: true }) }),
  status: 201,
});
