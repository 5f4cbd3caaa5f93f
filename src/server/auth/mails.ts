import type { MessageDescriptor } from '@lingui/core';
import { messages } from '../../contract/messages';
import { toInterfaceLanguage } from '../../contract/languages';
import { translator } from '../http/i18n';
import type { Mailer } from '../mail/mailer';
import { brandingOf, loadSettings } from '../routes/white-label';
import type { Db } from '../store/open';
import type { UserRow } from './sessions';

const templates: Record<'login' | 'reset' | 'invite' | 'adminReset', { subject: MessageDescriptor; text: MessageDescriptor }> = {
  login: { subject: messages.pinMailSubject, text: messages.pinMailText },
  reset: { subject: messages.resetMailSubject, text: messages.resetMailText },
  invite: { subject: messages.inviteMailSubject, text: messages.inviteMailText },
  adminReset: { subject: messages.resetMailSubject, text: messages.adminResetMailText },
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
