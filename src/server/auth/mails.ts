import { messages } from '../../contract/messages';
import { toInterfaceLanguage } from '../../contract/languages';
import { translator } from '../http/i18n';
import type { Mailer } from '../mail/mailer';
import { loadBranding } from '../routes/white-label';
import type { Db } from '../store/open';
import type { UserRow } from './sessions';

const templates = {
  login: { subject: messages.pinMailSubject, text: messages.pinMailText },
  reset: { subject: messages.resetMailSubject, text: messages.resetMailText },
};

/** Mails a PIN to the address stored for the user — never one from the request — in the user's language. */
export async function mailPin(db: Db, mailer: Mailer, user: UserRow, purpose: keyof typeof templates, pin: string): Promise<void> {
  const product = (await loadBranding(db)).cmsName;
  const t = translator(toInterfaceLanguage(user.language));
  const values = { pin, product, name: user.firstName || user.username };
  await mailer.send({ to: user.email, subject: t(templates[purpose].subject, values), text: t(templates[purpose].text, values) });
}
