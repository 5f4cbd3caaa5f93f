import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Connections the server makes to a host a website's people chose (their own mail server, their
// webhooks' receivers): the name is resolved once and connected to by that address, and an address
// of this machine, its network or a cloud's metadata service is refused unless the installation
// says its servers live there (SMTP_ALLOW_PRIVATE, WEBHOOKS_ALLOW_PRIVATE). A second lookup by the
// client library could swap a public address for a private one, so none is made.

/** Why a chosen host was not connected to, for the log; the caller hears only that it failed. */
export class OutboundRefused extends Error {}
/** The host has an address of this machine or its network, which this installation does not allow. */
export class PrivateAddressRefused extends OutboundRefused {}

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
  // IPv6 forms of IPv4 addresses (NAT64, 6to4, Teredo): none is a server's own address. A mapped
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

/** Whether an address is one a chosen host may not have: loopback, private, link-local, ULA, CGNAT, metadata, reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** A host as a URL or a setting writes it (`[::1]`), without the brackets an IPv6 literal wears. */
export const bareHost = (host: string) => host.replace(/^\[|\]$/g, '');

export const LOOKUP_MS = 5_000;

/** The one address the connection goes to: every address the name has must be allowed, or none is used. */
export async function resolveOutbound(host: string, allowPrivate: boolean): Promise<string> {
  const bare = bareHost(host);
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new OutboundRefused(`no address for ${host} in time`)), LOOKUP_MS)));
    try {
      addresses = (await Promise.race([lookup(bare, { all: true, verbatim: true }), timeout])).map((found) => found.address);
    } catch (error) {
      throw error instanceof OutboundRefused ? error : new OutboundRefused(`no address for ${host}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (addresses.length === 0) throw new OutboundRefused(`no address for ${host}`);
  if (!allowPrivate && addresses.some(isPrivateAddress)) throw new PrivateAddressRefused(`${host} has a private or reserved address`);
  return addresses[0]!;
}
