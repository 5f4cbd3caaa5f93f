import type { MessageDescriptor } from '@lingui/core';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod/mini';
import { messages } from '../../contract/messages';
import { FORM_VALUE_LIMITS, type FormField } from '../../contract/resources/contact-forms';
import { encryptSecret } from '../auth/encryption';
import type { HookContext, ResourceHooks, Row } from '../crud';
import { contactSubmissions } from '../store/schema';
import type { SubmittedField } from '../store/schema/contact-forms';
import { slugOf } from './slugs';

type Values = Record<string, unknown>;

// What the contact forms' entries do beyond storing their fields: a form's fields get names, the
// SMTP password is kept encrypted, and a visitor's submission is checked against its form.

/** A field's name from its label: "Your e-mail" → `your_e_mail`; a letter first, at most 40 characters. */
function nameOf(label: string): string {
  const base = slugOf(label).replace(/-/g, '_').slice(0, 36).replace(/_+$/, '');
  return /^[a-z]/.test(base) ? base : `field${base ? `_${base}` : ''}`.slice(0, 36);
}

/** Names for the fields that have none, from their labels, unlike every other name of the form. */
export function namedFields(fields: readonly FormField[]): FormField[] {
  const taken = new Set(fields.map((field) => field.name).filter(Boolean));
  return fields.map((field) => {
    if (field.name) return field;
    const base = nameOf(field.label);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return { ...field, name };
  });
}

/** A form's fields all have names, whoever sent them without (the admin's editor leaves them to the labels). */
export const contactFormHooks: ResourceHooks = {
  beforeCreate: (values: Values) => ({ ...values, fields: namedFields((values.fields ?? []) as FormField[]) }),
  beforeUpdate: (changes: Values) => ('fields' in changes ? { ...changes, fields: namedFields(changes.fields as FormField[]) } : changes),
};

/** A submission's moments as the wire writes them. */
export const submissionHooks: ResourceHooks = {
  present: (entity, row) => ({ ...entity, sentAt: (row.sentAt as Date | null)?.toISOString() ?? null }),
};

const withoutPassword = (values: Values) => Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'password'));

/**
 * The SMTP password: encrypted with APP_SECRET for this website, never answered (`hasPassword`
 * says whether one is kept). An update without it keeps the stored one; an empty one removes it.
 * New settings also make the website's waiting mails due at once: they may go now.
 */
export function smtpHooks(secret: string, clock: () => Date): ResourceHooks {
  const stored = (password: unknown, { request }: HookContext) => (typeof password === 'string' && password !== '' ? encryptSecret(secret, request.website!.id, password) : null);
  const dueNow = async (row: Row, { tx }: HookContext) => {
    await tx
      .update(contactSubmissions)
      .set({ nextAttemptAt: clock() })
      .where(and(eq(contactSubmissions.websiteId, row.websiteId as string), eq(contactSubmissions.mailStatus, 'pending'), sql`${contactSubmissions.nextAttemptAt} > ${clock().toISOString()}::timestamptz`));
  };
  return {
    beforeCreate: (values, context) => ({ ...withoutPassword(values), passwordEncrypted: stored(values.password, context) }),
    beforeUpdate: (changes, context) => ('password' in changes ? { ...withoutPassword(changes), passwordEncrypted: stored(changes.password, context) } : changes),
    afterCreate: dueNow,
    afterUpdate: dueNow,
    present: (entity, row) => ({ ...entity, hasPassword: row.passwordEncrypted != null }),
  };
}

export interface CheckedSubmission {
  values: SubmittedField[];
  /** How a person tells it from others: the first address given, else the first line. */
  summary: string;
}

type FieldProblem = { path: string; message: MessageDescriptor };

const EMAIL = z.string().check(z.regex(z.regexes.html5Email));
const TICKED = new Set([true, 'true', 'on', '1', 'yes']);
const UNTICKED = new Set([false, 'false', 'off', '0', 'no', '', null, undefined]);

/** One value as its field's type takes it, or the reason it does not. */
function checkValue(field: FormField, raw: unknown): { value?: SubmittedField['value']; problem?: MessageDescriptor } {
  if (field.type === 'checkbox') {
    if (TICKED.has(raw as never)) return { value: true };
    if (!UNTICKED.has(raw as never)) return { problem: messages.invalidValue };
    return field.required ? { problem: messages.required } : { value: false };
  }
  if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') return { problem: messages.invalidValue };
  // Control characters never reach a mail; a line stays one line.
  const cleaned = String(raw ?? '').replace(/(?![\n\r\t])\p{Cc}/gu, '');
  const text = (field.type === 'textarea' ? cleaned.replace(/\r\n?/g, '\n') : cleaned.replace(/[\r\n\t]+/g, ' ')).trim();
  if (text === '') return field.required ? { problem: messages.required } : {};
  if ([...text].length > FORM_VALUE_LIMITS[field.type]) return { problem: messages.tooLong };
  switch (field.type) {
    case 'email':
      return z.safeParse(EMAIL, text).success ? { value: text } : { problem: messages.emailFormat };
    case 'tel':
      return /^\+?[0-9 ()./-]{3,}$/.test(text) ? { value: text } : { problem: messages.invalidValue };
    case 'number': {
      const number = Number(text.replace(',', '.'));
      return Number.isFinite(number) ? { value: number } : { problem: messages.invalidValue };
    }
    case 'date': {
      const valid = /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
      return valid ? { value: text } : { problem: messages.invalidValue };
    }
    case 'select':
      return field.options.includes(text) ? { value: text } : { problem: messages.invalidValue };
    default:
      return { value: text };
  }
}

/**
 * A visitor's values checked against the form's fields (required, type, options, length): those
 * of its fields, in the form's order, with their labels; anything else sent is dropped. When any
 * value is refused, the problems instead, each at `body.<name>`.
 */
export function checkSubmission(fields: readonly FormField[], body: Readonly<Record<string, unknown>>): CheckedSubmission | FieldProblem[] {
  const values: SubmittedField[] = [];
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    const { value, problem } = checkValue(field, Object.hasOwn(body, field.name) ? body[field.name] : undefined);
    if (problem) problems.push({ path: `body.${field.name}`, message: problem });
    else if (value !== undefined) values.push({ name: field.name, label: field.label, value });
  }
  if (problems.length > 0) return problems;
  const email = values.find((entry) => fields.find((field) => field.name === entry.name)?.type === 'email');
  const first = email ?? values.find((entry) => typeof entry.value === 'string');
  return { values, summary: [...String(first?.value ?? '')].slice(0, 200).join('') };
}
