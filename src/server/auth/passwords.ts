import { hash, verify } from '@node-rs/argon2';

// argon2id is the library's default algorithm (its const enum cannot be imported under
// verbatimModuleSyntax); the test asserts the `$argon2id$` prefix. OWASP's baseline cost.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

let decoy: Promise<string> | null = null;

/**
 * Checks a password; without a stored hash (unknown user) it checks against a decoy, so an
 * unknown account takes as long to refuse as a wrong password.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored) return verify(stored, password).catch(() => false);
  decoy ??= hashPassword('decoy password that matches no account');
  await verify(await decoy, password).catch(() => false);
  return false;
}
