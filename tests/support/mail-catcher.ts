import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** The raw message with quoted-printable soft breaks undone: enough to find a PIN or a phrase. */
  raw: string;
}

/** A real SMTP server in this process: the app sends to it over SMTP_URL like to any other. */
export async function startMailCatcher() {
  const mails: CaughtMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw });
        waiting.forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  /** Resolves with the first mail to `to` after the first `skip` ones. */
  function nextMail(to: string, skip = 0, timeoutMs = 10_000): Promise<CaughtMail> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = mails.filter((m) => m.to.includes(to.toLowerCase()))[skip];
        if (!match) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.add(check);
      check();
    });
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    nextMail,
    /** Waits for the next mail to `to` (one not read before) and returns the 6-digit PIN in it. */
    async nextPin(to: string): Promise<string> {
      const count = mails.filter((m) => m.to.includes(to.toLowerCase())).length;
      const mail = await nextMail(to, count);
      const pin = mail.raw.match(/\b(\d{6})\b/);
      if (!pin) throw new Error(`no PIN in the mail to ${to}`);
      return pin[1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;
