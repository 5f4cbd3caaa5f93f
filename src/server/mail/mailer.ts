import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  /** The settings' sender; the configured MAIL_FROM when not given. */
  from?: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  /** Where mails go when no SMTP server is configured: one .eml file each. */
  outboxDir: string;
}

/**
 * SMTP when SMTP_URL is set; otherwise every mail is printed and kept as an .eml file, so a
 * fresh install can sign in (the PIN is in the mail) before anyone has configured a mail server.
 */
export function createMailer({ smtpUrl, from, outboxDir }: MailerOptions): Mailer {
  // nodemailer loads with the first mail, not with the server: most starts send none.
  let transport: Promise<Transporter> | null = null;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      smtpUrl ? createTransport(smtpUrl) : createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const close = () => void transport?.then((open) => open.close());
  if (smtpUrl) {
    return {
      send: async (mail) => void (await (await connect()).sendMail({ ...mail, from: mail.from ?? from })),
      close,
    };
  }
  return {
    async send(mail) {
      const info = await (await connect()).sendMail({ ...mail, from: mail.from ?? from });
      await mkdir(outboxDir, { recursive: true });
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      console.info(`\n--- mail to ${mail.to}: ${mail.subject}\n${mail.text}\n--- (${file})\n`);
    },
    close,
  };
}
