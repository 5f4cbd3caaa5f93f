import { createHmac, hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256 random bits: a session token or a reset token. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens carry 256 bits of entropy, so a plain SHA-256 cannot be reversed by guessing. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * A PIN has only a million values, so a bare hash would fall to brute force if the table leaked:
 * it is keyed with APP_SECRET and bound to its challenge.
 */
export function hashPin(secret: string, challengeId: string, pin: string): string {
  return createHmac('sha256', secret).update(`${challengeId}:${pin}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
