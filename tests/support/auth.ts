import type { FastifyInstance } from 'fastify';
import { openSession } from '../../src/server/auth/sessions';
import type { Mail } from '../../src/server/mail/mailer';
import type { Store } from '../../src/server/store/open';

/** The PIN in the newest mail to `to`. */
export function lastPin(sent: Mail[], to: string): string {
  const mail = sent.filter((m) => m.to === to).at(-1);
  const pin = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!pin) throw new Error(`no PIN mailed to ${to}`);
  return pin;
}

/** Signs in through the real two steps (password, then the mailed PIN) and returns the bearer token. */
export async function signIn(app: FastifyInstance, sent: Mail[], user: { email: string; password: string }, userAgent = 'vitest') {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { emailOrUsername: user.email, password: user.password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/verify-pin',
    headers: { 'user-agent': userAgent },
    payload: { emailOrUsername: user.email, pin: lastPin(sent, user.email) },
  });
  if (verify.statusCode !== 200) throw new Error(`verify-pin failed: ${verify.body}`);
  return verify.json().data.token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A session opened directly in the store: for tests about what a signed-in user may do, not about signing in. */
export async function tokenFor(store: Store, userId: string, now = new Date()): Promise<string> {
  return openSession(store.db, userId, { userAgent: 'vitest', ip: '127.0.0.1' }, now);
}
