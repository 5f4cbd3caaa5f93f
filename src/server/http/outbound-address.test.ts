// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, OutboundRefused, resolveOutbound } from './outbound-address';

describe('an address a website chose (its mail server, its webhooks)', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '172.16.3.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    'fd00:ec2::254',
    'fe80::1',
    '2002:7f00:1::',
    '224.0.0.1',
    'not an address',
  ])('%s is refused', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2a00:1450:4001:80b::200e', '172.32.0.1'])('%s is allowed', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('is resolved once: a name with a private address is refused, an IP literal needs no lookup', async () => {
    await expect(resolveOutbound('localhost', false)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(resolveOutbound('127.0.0.1', false)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(resolveOutbound('127.0.0.1', true)).resolves.toBe('127.0.0.1');
    await expect(resolveOutbound('93.184.215.14', false)).resolves.toBe('93.184.215.14');
    await expect(resolveOutbound('no-such-host.invalid', true)).rejects.toBeInstanceOf(OutboundRefused);
  });
});
