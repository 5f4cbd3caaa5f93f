import type { MessageDescriptor } from '@lingui/core';

/**
 * What the server mails, in the recipient's language: no screen shows these, so they are no part of
 * the contract the page loads with its first screen (its `boot` catalog), only of the whole catalog
 * the server reads. Plain descriptors, as in the contract.
 */
export const mailTexts = {
  // Sign-in and account.
  pinMailSubject: /*i18n*/ { id: 'mail.pin.subject', message: 'Your sign-in PIN: {pin}' },
  pinMailText: /*i18n*/ {
    id: 'mail.pin.text',
    message:
      'Hello {name},\n\nyour PIN for signing in to {product} is: {pin}\n\nIt is valid for 10 minutes and can be used once. If you did not try to sign in, change your password.',
  },
  resetMailSubject: /*i18n*/ { id: 'mail.reset.subject', message: 'Your password reset PIN: {pin}' },
  resetMailText: /*i18n*/ {
    id: 'mail.reset.text',
    message:
      'Hello {name},\n\nyour PIN for resetting your password at {product} is: {pin}\n\nIt is valid for 10 minutes. If you did not ask for this, ignore this mail: your password stays as it is.',
  },

  inviteMailSubject: /*i18n*/ { id: 'mail.invite.subject', message: 'Your account at {product}' },
  inviteMailText: /*i18n*/ {
    id: 'mail.invite.text',
    message:
      'Hello {name},\n\nan account at {product} has been created for you ({email}). To choose your password, open\n\n{link}\n\nand enter this PIN: {pin}\n\nIt is valid for 7 days. Afterwards you sign in with your email address and your password.',
  },
  adminResetMailText: /*i18n*/ {
    id: 'mail.adminReset.text',
    message:
      'Hello {name},\n\nan administrator of {product} has asked for your password to be reset. To choose a new one, open\n\n{link}\n\nand enter this PIN: {pin}\n\nIt is valid for 7 days. Until then your current password keeps working.',
  },

  // A website's own SMTP server, tried.
  smtpTestSubject: /*i18n*/ { id: 'mail.smtpTest.subject', message: 'Test mail from {website}' },
  smtpTestText: /*i18n*/ { id: 'mail.smtpTest.text', message: 'This mail was sent through the SMTP configuration of {website} ({host}). Contact form submissions will reach you the same way.' },
  // The default mail template: {form}, {date} and {fields} are handed in as the template's own placeholders.
  formMailSubject: /*i18n*/ { id: 'mail.form.subject', message: 'New message: {form}' },
  formMailText: /*i18n*/ { id: 'mail.form.text', message: 'A visitor sent the form “{form}” on {date}:\n\n{fields}' },
  // A webhook switched off after a day of failures: to the website's owner.
  webhookDisabledSubject: /*i18n*/ { id: 'mail.webhookDisabled.subject', message: 'A webhook of {website} was switched off' },
  webhookDisabledText: /*i18n*/ {
    id: 'mail.webhookDisabled.text',
    message: 'For 24 hours, {url} did not accept the changes of {website}, so the webhook was switched off. Once the address works again, switch it on under {link}.',
  },
} satisfies Record<string, MessageDescriptor>;
