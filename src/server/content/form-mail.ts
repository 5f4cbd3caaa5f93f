import type { SubmittedField } from '../store/schema/contact-forms';

// The mail a contact form's submission makes, from the website's template (contract
// `mailTemplates`): `{{name}}` is the value of the field of that name, `{{fields}}` every field
// with its label, `{{form}}` the form's name, `{{date}}` when it was sent. What a visitor typed is
// only ever a value: escaped in the HTML part, kept on one line in the subject, and never read as
// a placeholder itself.

export interface MailTemplate {
  subject: string;
  body: string;
}

export interface FormMailFacts {
  form: string;
  sentAt: Date;
  values: readonly SubmittedField[];
}

export interface FormMail {
  subject: string;
  text: string;
  html: string;
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z][a-zA-Z0-9_]*)\s*\}\}/g;
const SUBJECT_MAX = 250;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const lines = (html: string) => html.replace(/\r?\n/g, '<br>\n');

/** A value as a person reads it: a tick as ✓ or ✗, a number as it was sent. */
const shown = (value: SubmittedField['value']) => (typeof value === 'boolean' ? (value ? '✓' : '✗') : String(value));

/** `2026-11-24 11:30 UTC`: the submission's moment, readable in any language. */
export const mailDate = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Replaces each placeholder of `template` by what `value` makes of its name, and each piece of
 * text between them by what `literal` makes of it; an unknown name stands for nothing.
 */
function fill(template: string, literal: (text: string) => string, value: (name: string) => string | undefined): string {
  let result = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    result += literal(template.slice(last, match.index)) + (value(match[1]!) ?? '');
    last = match.index + match[0].length;
  }
  return result + literal(template.slice(last));
}

/** The mail of one submission, in plain text and HTML; `fallback` fills what the template leaves empty. */
export function renderFormMail(template: MailTemplate, fallback: MailTemplate, facts: FormMailFacts): FormMail {
  const byName = new Map(facts.values.map((field) => [field.name, shown(field.value)]));
  const common = (name: string) => (name === 'form' ? facts.form : name === 'date' ? mailDate(facts.sentAt) : byName.get(name));
  const subject = template.subject.trim() || fallback.subject;
  const body = template.body.trim() ? template.body : fallback.body;

  const textFields = facts.values.map((field) => `${field.label}: ${shown(field.value)}`).join('\n');
  const htmlFields = `<table cellpadding="4" style="border-collapse: collapse">${facts.values
    .map((field) => `<tr><th align="left" valign="top">${escapeHtml(field.label)}</th><td>${lines(escapeHtml(shown(field.value)))}</td></tr>`)
    .join('')}</table>`;

  const text = fill(body, (part) => part, (name) => (name === 'fields' ? textFields : common(name)));
  const html = fill(
    body,
    (part) => lines(escapeHtml(part)),
    (name) => (name === 'fields' ? htmlFields : lines(escapeHtml(common(name) ?? ''))),
  );
  // A header is one line: whatever a visitor typed cannot add another.
  const oneLine = fill(subject, (part) => part, (name) => (name === 'fields' ? textFields : common(name)))
    .replace(/\s+/g, ' ')
    .trim();
  return {
    subject: [...oneLine].slice(0, SUBJECT_MAX).join(''),
    text,
    html: `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${html}</body></html>`,
  };
}
