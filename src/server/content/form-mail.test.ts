// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { translator } from '../http/i18n';
import { renderFormMail } from './form-mail';
import { mailTexts } from '../mail/texts';

const facts = {
  form: 'Booking',
  sentAt: new Date('2026-11-24T11:30:00Z'),
  values: [
    { name: 'name', label: 'Name', value: '<script>alert(1)</script> {{form}}' },
    { name: 'guests', label: 'Guests', value: 4 },
    { name: 'privacy', label: 'Privacy & <terms>', value: true },
    { name: 'message', label: 'Message', value: 'line one\nline two' },
  ],
};
const placeholders = { form: '{{form}}', date: '{{date}}', fields: '{{fields}}' };
const fallback = { subject: translator('en')(mailTexts.formMailSubject, placeholders), body: translator('en')(mailTexts.formMailText, placeholders) };

describe('a submission’s mail', () => {
  it('fills the placeholders; what a visitor typed is a value, never a placeholder, and escaped in HTML', () => {
    const mail = renderFormMail({ subject: 'From {{ name }}', body: '<p>{{name}} wants {{guests}} seats{{nothing}}</p>' }, fallback, facts);
    expect(mail.text).toBe('<p><script>alert(1)</script> {{form}} wants 4 seats</p>');
    expect(mail.html).toContain('&#60;p&#62;&#60;script&#62;alert(1)&#60;/script&#62; {{form}} wants 4 seats&#60;/p&#62;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.subject).toBe('From <script>alert(1)</script> {{form}}');
  });

  it('lists every field with its label for {{fields}}, lines kept as lines', () => {
    const mail = renderFormMail({ subject: '', body: 'Sent {{date}}:\n{{fields}}' }, fallback, facts);
    expect(mail.text).toBe('Sent 2026-11-24 11:30 UTC:\nName: <script>alert(1)</script> {{form}}\nGuests: 4\nPrivacy & <terms>: ✓\nMessage: line one\nline two');
    expect(mail.html).toContain('<th align="left" valign="top">Privacy &#38; &#60;terms&#62;</th><td>✓</td>');
    expect(mail.html).toContain('<td>line one<br>\nline two</td>');
    expect(mail.html).toContain('Sent 2026-11-24 11:30 UTC:<br>');
  });

  it('uses the default where the template is empty, and keeps the subject one short line', () => {
    const mail = renderFormMail({ subject: '  ', body: '' }, fallback, facts);
    expect(mail.subject).toBe('New message: Booking');
    expect(mail.text).toBe('A visitor sent the form “Booking” on 2026-11-24 11:30 UTC:\n\nName: <script>alert(1)</script> {{form}}\nGuests: 4\nPrivacy & <terms>: ✓\nMessage: line one\nline two');
    const long = renderFormMail({ subject: '{{message}} {{fields}}', body: '' }, fallback, { ...facts, values: [...facts.values, { name: 'more', label: 'More', value: 'x'.repeat(400) }] });
    expect(long.subject).not.toMatch(/[\r\n]/);
    expect([...long.subject].length).toBe(250);
  });
});
