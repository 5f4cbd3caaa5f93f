// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './encryption';

const SECRET = 'an-app-secret-of-at-least-32-characters';
const SITE = '0190a1b2-0000-7000-8000-000000000001';

describe('stored secrets', () => {
  it('come back as they were, and never appear in what is stored', () => {
    const stored = encryptSecret(SECRET, SITE, 'smtp pässword');
    expect(stored).not.toContain('smtp');
    expect(stored.startsWith('v1.')).toBe(true);
    expect(decryptSecret(SECRET, SITE, stored)).toBe('smtp pässword');
  });

  it('differ each time the same secret is stored', () => {
    expect(encryptSecret(SECRET, SITE, 'same')).not.toBe(encryptSecret(SECRET, SITE, 'same'));
  });

  it('do not open for another website, under another APP_SECRET, or when changed', () => {
    const stored = encryptSecret(SECRET, SITE, 'secret');
    expect(() => decryptSecret(SECRET, '0190a1b2-0000-7000-8000-000000000002', stored)).toThrow();
    expect(() => decryptSecret(`${SECRET}-other`, SITE, stored)).toThrow();
    const [version, iv, tag, data] = stored.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret(SECRET, SITE, [version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => decryptSecret(SECRET, SITE, 'plain text')).toThrow();
  });
});
