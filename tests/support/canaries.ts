import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { loggerOptions } from '../../src/server/app';
import { issuePin, issueResetToken } from '../../src/server/auth/challenges';
import { hashToken } from '../../src/server/auth/secrets';
import type { Store } from '../../src/server/store/open';
import { pinChallenges, smtpSettings, users } from '../../src/server/store/schema';
import { testAppConfig } from './app';
import { CAST_PASSWORD, type Cast } from './cast';
import type { Principal } from './principals';

/*
 * Secrets with known values (canaries), looked for in every answer a suite gets and in every line
 * the server logs: passwords and their hashes, an open sign-in PIN, a password-reset token and its
 * PIN, an SMTP password and its ciphertext, API keys and session tokens with their hashes, and the
 * installation's secret. None of them may ever leave the server.
 */

interface Canary {
  name: string;
  value: string;
  /** A PIN is six digits: found only where no other digit or letter touches it, so a timestamp or an id is not a leak. */
  pattern?: RegExp;
}

/** Log lines kept in memory: the server's pino logger, with the production redaction, writing here at the most detailed level. */
export function logBuffer() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: { ...loggerOptions('trace'), stream } };
}

export class Canaries {
  readonly list: Canary[] = [];
  readonly leaks: string[] = [];
  /** How many answers and log lines were looked through. */
  looked = 0;

  add(name: string, value: string | null | undefined) {
    if (!value) throw new Error(`Canary ${name} has no value`);
    this.list.push(/^\d{6}$/.test(value) ? { name, value, pattern: new RegExp(`(?<![\\w-])${value}(?![\\w-])`) } : { name, value });
  }

  /** Records every canary found in `text`, and where. */
  check(where: string, text: string) {
    this.looked += 1;
    for (const canary of this.list) {
      if (canary.pattern ? canary.pattern.test(text) : text.includes(canary.value)) this.leaks.push(`${canary.name} in ${where}`);
    }
  }

  answer(where: string, res: LightMyRequestResponse) {
    this.check(where, `${JSON.stringify(res.headers)}\n${res.body}`);
  }
}

/**
 * The secrets of the cast and the principals, with a few made for the purpose: an open PIN of
 * owner A, a reset token (and its PIN) of owner B, website A's SMTP password.
 */
export async function seedCanaries(app: FastifyInstance, store: Store, cast: Cast, principals: Principal[], keys: (Principal & { key: string })[]): Promise<Canaries> {
  const canaries = new Canaries();
  const db = store.db;
  const secret = testAppConfig().appSecret;
  canaries.add('APP_SECRET', secret);
  canaries.add('the cast’s password', CAST_PASSWORD);
  for (const user of await db.select({ email: users.email, hash: users.passwordHash }).from(users).where(inArray(users.id, Object.values(cast.ids)))) {
    canaries.add(`password hash of ${user.email}`, user.hash);
  }
  const now = new Date();
  const pin = await issuePin({ db, secret, now }, cast.ids.ownerA, 'login');
  canaries.add('open sign-in PIN', pin);
  const resetPin = await issuePin({ db, secret, now }, cast.ids.ownerB, 'reset');
  const [reset] = await db.select().from(pinChallenges).where(eq(pinChallenges.userId, cast.ids.ownerB));
  const token = await issueResetToken({ db, secret, now }, reset!.id);
  canaries.add('reset PIN', resetPin);
  canaries.add('reset token', token);
  canaries.add('reset token hash', token && hashToken(token));
  for (const challenge of await db.select().from(pinChallenges)) canaries.add(`PIN hash of challenge ${challenge.id}`, challenge.pinHash);

  const smtpPassword = 'canary-smtp-password-Q7v9xK2m';
  const smtp = await app.inject({
    method: 'PUT',
    url: `/api/cms/contact-forms/${cast.site.A}/smtp`,
    headers: cast.headers.ownerA,
    payload: { host: 'smtp.example.test', fromEmail: 'site-a@example.test', username: 'site-a', password: smtpPassword },
  });
  if (smtp.statusCode >= 300) throw new Error(`SMTP settings: ${smtp.statusCode} ${smtp.body}`);
  const [stored] = await db.select({ encrypted: smtpSettings.passwordEncrypted }).from(smtpSettings).where(eq(smtpSettings.websiteId, cast.site.A));
  canaries.add('SMTP password', smtpPassword);
  canaries.add('SMTP password, encrypted', stored?.encrypted);

  for (const key of keys) {
    canaries.add(`API key (${key.name})`, key.key);
    canaries.add(`API key hash (${key.name})`, hashToken(key.key));
  }
  for (const principal of principals) {
    const bearer = principal.headers.authorization?.slice('Bearer '.length);
    if (!bearer) continue;
    canaries.add(`session token (${principal.name})`, bearer);
    canaries.add(`session token hash (${principal.name})`, hashToken(bearer));
  }
  return canaries;
}
