// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('mailer', () => {
  it('delivers over SMTP_URL to a real SMTP server', async () => {
    const received: { from: string; to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.server.address() as { port: number };

    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'CMS <cms@example.test>', outboxDir: '/nonexistent' });
    await mailer.send({ to: 'anna@example.test', subject: 'Ihr Anmeldecode', text: 'Code: 123456' });
    mailer.close();

    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('cms@example.test');
    expect(received[0]!.to).toEqual(['anna@example.test']);
    expect(received[0]!.raw).toContain('Code: 123456');
    expect(received[0]!.raw).toMatch(/Subject: .*Anmeldecode/);
  });

  it('writes an .eml file to the outbox when no SMTP server is configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sk-outbox-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const mailer = createMailer({ smtpUrl: null, from: 'cms@example.test', outboxDir: join(dir, 'outbox') });
    await mailer.send({ to: 'ben@example.test', subject: 'Welcome', text: 'Your PIN is 654321' });
    const files = await readdir(join(dir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(join(dir, 'outbox', files[0]!), 'utf8');
    expect(eml).toContain('To: ben@example.test');
    expect(eml).toContain('Subject: Welcome');
    expect(eml).toContain('Your PIN is 654321');
  });
});
