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

/**
 * A browser calling the sign-in routes: its own address and cookie jar (the sign-in attempt, the
 * known devices). Every sign-in cookie lives on /api/auth, so the jar ignores paths.
 */
export function browser(app: FastifyInstance, remoteAddress = '127.0.0.1', jar = new Map<string, string>()) {
  return {
    jar,
    async post(url: string, payload: object, headers: Record<string, string> = {}) {
      const res = await app.inject({ method: 'POST', url: `/api/auth/${url}`, payload, headers, remoteAddress, cookies: Object.fromEntries(jar) });
      for (const cookie of res.cookies as { name: string; value: string; maxAge?: number }[]) {
        if (cookie.maxAge === 0) jar.delete(cookie.name);
        else jar.set(cookie.name, cookie.value);
      }
      return res;
    },
  };
}
export type Browser = ReturnType<typeof browser>;

/** Signs in through the real two steps (password, then the mailed PIN) and returns the bearer token. */
export async function signIn(app: FastifyInstance, sent: Mail[], user: { email: string; password: string }, userAgent = 'vitest', from = browser(app)) {
  const login = await from.post('login', { emailOrUsername: user.email, password: user.password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const verify = await from.post('verify-pin', { emailOrUsername: user.email, pin: lastPin(sent, user.email) }, { 'user-agent': userAgent });
  if (verify.statusCode !== 200) throw new Error(`verify-pin failed: ${verify.body}`);
  return verify.json().data.token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A session opened directly in the store: for tests about what a signed-in user may do, not about signing in. */
export async function tokenFor(store: Store, userId: string, now = new Date()): Promise<string> {
  return openSession(store.db, userId, { userAgent: 'vitest', ip: '127.0.0.1' }, now);
}
