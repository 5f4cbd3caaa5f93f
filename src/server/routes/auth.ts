import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forgotPassword, login, logout, resetPassword, verifyPin, verifyResetPin } from '../../contract/auth';
import { messages } from '../../contract/messages';
import { registerAction } from '../action';
import { checkResetPin, checkResetToken, comparePin, consume, issuePin, issueResetToken, issueSignInPin, PIN_TTL_MS, signInChallenge, type PinCheck } from '../auth/challenges';
import { readCookie, setCookie } from '../auth/cookies';
import { forgetDevices, knownDevice, rememberDevice } from '../auth/known-devices';
import { mailPin } from '../auth/mails';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { authenticate, openSession, revokeAllSessions, revokeSession, type UserRow } from '../auth/sessions';
import { findByEmail, findByLogin, toAuthUser } from '../auth/users';
import type { ServerContext } from '../context';
import { HttpError } from '../http/errors';
import { enforce, hit, type Limit } from '../http/rate-limit';
import { ok } from '../http/reply';
import { caller } from '../policy';
import { users } from '../store/schema';

const quarterHour = 15 * 60_000;
/** Per client address, generous enough for an office behind one NAT. */
const perIp: Limit = { max: 50, windowMs: quarterHour };
/** Per account: a person mistyping a few times passes, a guesser does not. */
const perAccount: Limit = { max: 10, windowMs: quarterHour };
/** Per known device and account: the owner's own mistypes; a stolen cookie guesses no faster than a stranger. */
const perDevice: Limit = perAccount;
/**
 * Mails per account, purpose and hour, so nobody can flood an inbox with PINs. Each purpose counts
 * apart: reset mails anyone may ask for never hold back the sign-in PIN (ADR 017).
 */
const mailsPerPurpose: Limit = { max: 5, windowMs: 4 * quarterHour };
/** The sign-in attempt a PIN was mailed for (auth/challenges.ts issueSignInPin). */
const ATTEMPT_COOKIE = 'sk_attempt';

const pinError = (check: PinCheck & { ok: false }) => new HttpError(401, check.locked ? messages.pinLocked : messages.invalidPin);

export async function authRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store, mailer, clock, secret } = ctx;
  const db = store.db;
  const challengeCtx = () => ({ db, secret, now: clock() });

  /**
   * Rate limits per client address and per account. The account is the stored one the input
   * resolves to, so spelling an email another way (case, username instead) does not reset it;
   * for an input that matches no account, the normalized input stands in, so unknown and known
   * accounts answer alike.
   */
  function limit(request: FastifyRequest, reply: FastifyReply, action: string, user: UserRow | undefined, input: string) {
    const who = user?.id ?? `unknown:${input.trim().toLowerCase()}`;
    return enforce(db, reply, [[`${action}:ip:${request.ip}`, perIp], [`${action}:account:${who}`, perAccount]], clock());
  }

  registerAction(app, login, async ({ body }, request, reply) => {
    const { emailOrUsername, password } = body;
    const user = await findByLogin(db, emailOrUsername);
    const device = user ? await knownDevice(db, secret, request, user.id, clock()) : null;
    // A device this account signed in on counts on its own; the address's and the account's limits are the ones strangers fill.
    if (device) await enforce(db, reply, [[`login:device:${device}`, perDevice]], clock());
    else await limit(request, reply, 'login', user, emailOrUsername);
    // Unknown account and wrong password: the same answer after the same work.
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) throw new HttpError(401, messages.invalidCredentials);
    if (user.status !== 'active') throw new HttpError(403, messages.accountSuspended);
    await enforce(db, reply, [[`mail:login:${user.id}`, mailsPerPurpose]], clock());
    const { pin, attempt } = await issueSignInPin(challengeCtx(), user.id);
    try {
      await mailPin(db, mailer, user, 'login', pin);
    } catch (err) {
      request.log.error({ err }, 'sending the sign-in PIN failed');
      throw new HttpError(503, messages.mailFailed);
    }
    setCookie(request, reply, ATTEMPT_COOKIE, attempt, PIN_TTL_MS / 1000);
    return ok({ emailOrUsername, pinExpiresInSeconds: PIN_TTL_MS / 1000 }, { message: request.t(messages.pinSent) });
  });

  registerAction(app, verifyPin, async ({ body }, request, reply) => {
    const { emailOrUsername, pin } = body;
    const user = await findByLogin(db, emailOrUsername);
    const attempt = readCookie(request, ATTEMPT_COOKIE);
    const challenge = user?.status === 'active' && attempt ? await signInChallenge(challengeCtx(), user.id, attempt) : undefined;
    if (!user || !challenge) {
      // Not the browser the PIN was mailed to after the password: the account's challenge is not
      // touched and no limit of the account counts, only the caller's address.
      await enforce(db, reply, [[`verify-pin:ip:${request.ip}`, perIp]], clock());
      throw new HttpError(401, messages.invalidPin);
    }
    // The password was given to get here; the challenge's own five tries limit the PIN.
    const check = await comparePin(challengeCtx(), challenge, pin);
    if (!check.ok) throw pinError(check);
    if (!(await consume(challengeCtx(), check.challenge.id))) throw new HttpError(401, messages.invalidPin);

    // A PIN that reached the stored address proves it: the account is verified from now on.
    await db.update(users).set({ verified: true }).where(eq(users.id, user.id));
    const deviceId = await rememberDevice(db, secret, request, reply, user.id, clock());
    setCookie(request, reply, ATTEMPT_COOKIE, '', 0);
    const token = await openSession(db, user.id, { userAgent: request.headers['user-agent'] ?? '', ip: request.ip, deviceId }, clock());
    // The user as every later request will see it: one reading of the role for sign-in and policy.
    const auth = await authenticate(db, token, clock());
    if (!auth) throw new HttpError(401, messages.invalidPin);
    return ok({ token, user: toAuthUser(auth), type: user.type });
  });

  registerAction(app, logout, async (_input, request) => {
    const { user, session } = caller(request);
    await revokeSession(db, user.id, session.id, clock());
    return ok(null, { message: request.t(messages.loggedOut) });
  });

  registerAction(app, forgotPassword, async ({ body }, request, reply) => {
    const { email } = body;
    const user = await findByEmail(db, email);
    await enforce(db, reply, [[`forgot:ip:${request.ip}`, perIp]], clock());
    const answer = ok({ email }, { message: request.t(messages.resetPinSent) });
    if (!user || user.status !== 'active') return answer;
    // Over the account's mail limit the answer stays the same: it must not tell whether the account exists.
    if (!(await hit(db, `mail:reset:${user.id}`, mailsPerPurpose, clock()))) return answer;
    const pin = await issuePin(challengeCtx(), user.id, 'reset');
    // Not awaited: waiting for SMTP would make known accounts answer measurably slower.
    void mailPin(db, mailer, user, 'reset', pin).catch((err: unknown) => request.log.error({ err }, 'sending the reset PIN failed'));
    return answer;
  });

  registerAction(app, verifyResetPin, async ({ body }, request, reply) => {
    const { email, pin } = body;
    const user = await findByEmail(db, email);
    await limit(request, reply, 'verify-reset', user, email);
    if (!user || user.status !== 'active') throw new HttpError(401, messages.invalidPin);
    const check = await checkResetPin(challengeCtx(), user.id, pin);
    if (!check.ok) throw pinError(check);
    const tempToken = await issueResetToken(challengeCtx(), check.challenge.id);
    if (!tempToken) throw new HttpError(401, messages.invalidPin);
    return ok({ tempToken });
  });

  registerAction(app, resetPassword, async ({ body }, request, reply) => {
    const { tempToken, pin, newPassword } = body;
    await enforce(db, reply, [[`reset:ip:${request.ip}`, perIp]], clock());
    const check = await checkResetToken(challengeCtx(), tempToken, pin);
    if (!check.ok) throw new HttpError(401, check.locked ? messages.pinLocked : messages.resetTokenInvalid);
    const userId = check.challenge.userId;
    await enforce(db, reply, [[`reset:account:${userId}`, perAccount]], clock());
    if (!(await consume(challengeCtx(), check.challenge.id))) throw new HttpError(401, messages.resetTokenInvalid);
    const passwordHash = await hashPassword(newPassword);
    const now = clock();
    await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    // Whoever knew the old password is signed out everywhere, and their devices are strangers again.
    await revokeAllSessions(db, userId, now);
    await forgetDevices(db, userId);
    // The PIN from the mailbox and the new password prove this browser as a sign-in would.
    await rememberDevice(db, secret, request, reply, userId, now);
    return ok({ passwordReset: true }, { message: request.t(messages.passwordResetDone) });
  });
}
