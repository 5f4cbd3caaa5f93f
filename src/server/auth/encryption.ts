import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the server must read back (a website's SMTP password), unlike passwords it only checks:
// AES-256-GCM under a key derived from APP_SECRET (DESIGN §4, §8). Each value is bound to what it
// belongs to (`context`, a website's id), so a ciphertext copied into another row does not open.

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    // Its own key, not APP_SECRET itself: the PIN hashes are keyed with that.
    key = Buffer.from(hkdfSync('sha256', secret, 'sitekeeper', 'stored secrets', 32));
    keys.set(secret, key);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url: a fresh 96-bit IV each time, so equal secrets differ when stored. */
export function encryptSecret(secret: string, context: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv).setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The plain secret; throws when the value was changed, made for another context, or under another APP_SECRET. */
export function decryptSecret(secret: string, context: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Not an encrypted secret of this server');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
