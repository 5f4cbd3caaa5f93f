import { isIP } from 'node:net';
import type { Transporter } from 'nodemailer';
import { decryptSecret } from '../auth/encryption';
import { LOOKUP_MS, resolveOutbound } from '../http/outbound-address';
import type { Mail } from './mailer';
import type { smtpSettings } from '../store/schema';

// A website's own mail server (contract `smtpSettings`): its submissions and its test mail go out
// through it. The host is the website owner's to choose, so it is resolved once and connected to
// by that address (http/outbound-address.ts: SMTP_ALLOW_PRIVATE is this installation's switch).

export type SmtpRow = typeof smtpSettings.$inferSelect;

/** Short, so a dead server fails a test mail in seconds and a sender round is never held up long. */
const TIMEOUTS = { connectionTimeout: 8_000, greetingTimeout: 8_000, socketTimeout: 15_000, dnsTimeout: LOOKUP_MS };

/**
 * Sends one mail through a website's mail server, from its sender address. The connection goes to
 * the address resolved here; TLS still checks the certificate against the host's name.
 */
export async function sendWithWebsiteSmtp(
  row: SmtpRow,
  { secret, allowPrivate }: { secret: string; allowPrivate: boolean },
  mail: Omit<Mail, 'from'> & { replyTo?: string },
): Promise<void> {
  const address = await resolveOutbound(row.host, allowPrivate);
  const { createTransport } = await import('nodemailer');
  const password = row.passwordEncrypted ? decryptSecret(secret, row.websiteId, row.passwordEncrypted) : '';
  const transport: Transporter = createTransport({
    host: address,
    port: row.port,
    secure: row.security === 'tls',
    requireTLS: row.security === 'starttls',
    ignoreTLS: row.security === 'none',
    tls: isIP(row.host) ? {} : { servername: row.host },
    ...(row.username ? { auth: { user: row.username, pass: password } } : {}),
    ...TIMEOUTS,
  });
  try {
    await transport.sendMail({ ...mail, from: row.fromName ? { name: row.fromName, address: row.fromEmail } : row.fromEmail });
  } finally {
    transport.close();
  }
}
