import type { MessageDescriptor } from '@lingui/core';
import { toInterfaceLanguage } from '../../contract/languages';
import { translator } from '../http/i18n';
import type { Mailer } from '../mail/mailer';
import { brandingOf, loadSettings } from '../routes/white-label';
import type { Db } from '../store/open';
import type { UserRow } from './sessions';
import { mailTexts } from '../mail/texts';

const templates: Record<'login' | 'reset' | 'invite' | 'adminReset', { subject: MessageDescriptor; text: MessageDescriptor }> = {
  login: { subject: mailTexts.pinMailSubject, text: mailTexts.pinMailText },
  reset: { subject: mailTexts.resetMailSubject, text: mailTexts.resetMailText },
  invite: { subject: mailTexts.inviteMailSubject, text: mailTexts.inviteMailText },
  adminReset: { subject: mailTexts.resetMailSubject, text: mailTexts.adminResetMailText },
};
export type PinMail = keyof typeof templates;

/**
 * Mails a PIN to the address stored for the user — never one from the request — in the user's
 * language, from the sender the settings name. `link`: where to enter it (invitations and resets
 * an admin asked for, which the user did not start from the sign-in pages).
 */
export async function mailPin(db: Db, mailer: Mailer, user: UserRow, purpose: PinMail, pin: string, link = ''): Promise<void> {
  const settings = await loadSettings(db);
  const product = brandingOf(settings).cmsName;
  const t = translator(toInterfaceLanguage(user.language));
  const values = { pin, product, link, email: user.email, name: user.firstName || user.username };
  await mailer.send({ to: user.email, from: settings.mailFrom || undefined, subject: t(templates[purpose].subject, values), text: t(templates[purpose].text, values) });
}
