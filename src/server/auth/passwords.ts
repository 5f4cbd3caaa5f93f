import { hash } from '@node-rs/argon2';

// argon2id is the library's default algorithm (its const enum cannot be imported under
// verbatimModuleSyntax); the test asserts the `$argon2id$` prefix. OWASP's baseline cost.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}
