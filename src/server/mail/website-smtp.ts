import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Transporter } from 'nodemailer';
import { decryptSecret } from '../auth/encryption';
import type { Mail } from './mailer';
import type { smtpSettings } from '../store/schema';

// A website's own mail server (contract `smtpSettings`): its submissions and its test mail go out
// through it. The host is the website owner's to choose, so it is resolved once and connected to
// by that address: an address of this machine, its network or a cloud's metadata service is
// refused (unless SMTP_ALLOW_PRIVATE says this installation's mail servers live there), and a
// second lookup cannot swap a public address for a private one.

/** Why a website's mail server was not used, for the log; the caller hears only "failed". */
export class SmtpRefused extends Error {}

const BLOCKED: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  // Carrier-grade NAT, also where some clouds keep their metadata services.
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  // Link-local, with 169.254.169.254: the metadata service of most clouds.
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  // IPv6 forms of IPv4 addresses (NAT64, 6to4, Teredo): none is a mail server's own address. A mapped
  // one (::ffff:a.b.c.d) is checked as the IPv4 address it is by BlockList itself.
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 32, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  // Unique local (with AWS's metadata service, fd00:ec2::254), link-local, site-local, multicast.
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];
const blocked = new BlockList();
for (const [network, prefix, type] of BLOCKED) blocked.addSubnet(network, prefix, type);

/** Whether an address is one a website's mail server may not have: loopback, private, link-local, ULA, CGNAT, metadata, reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const LOOKUP_MS = 5_000;

/** The one address the connection goes to: every address the name has must be allowed, or none is used. */
export async function resolveSmtpHost(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new SmtpRefused(`no address for ${host} in time`)), LOOKUP_MS)));
    try {
      addresses = (await Promise.race([lookup(bare, { all: true, verbatim: true }), timeout])).map((found) => found.address);
    } catch (error) {
      throw error instanceof SmtpRefused ? error : new SmtpRefused(`no address for ${host}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) throw new SmtpRefused(`no address for ${host}`);
  if (!allowPrivate && addresses.some(isPrivateAddress)) throw new SmtpRefused(`${host} has a private or reserved address`);
  return addresses[0]!;
}

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
  const address = await resolveSmtpHost(row.host, allowPrivate);
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
