import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ForgotPasswordBody,
  ForgotPasswordResult,
  LoginBody,
  LoginResult,
  ResetPasswordBody,
  ResetPasswordResult,
  VerifyPinBody,
  VerifyPinResult,
  VerifyResetPinBody,
  VerifyResetPinResult,
} from '../../contract/auth';
import { successSchema } from '../../contract/envelope';
import { messages } from '../../contract/messages';
import { checkPin, checkResetToken, consume, issuePin, issueResetToken, PIN_TTL_MS, type PinCheck } from '../auth/challenges';
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
/** Mails per account and hour, so nobody can flood an inbox with PINs. */
const mailsPerAccount: Limit = { max: 5, windowMs: 4 * quarterHour };

const pinError = (check: PinCheck & { ok: false }) => new HttpError(401, check.locked ? messages.pinLocked : messages.invalidPin);

export async function authRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store, mailer, clock, secret } = ctx;
  const db = store.db;
  const route = app.withTypeProvider<ZodTypeProvider>();
  const challengeCtx = () => ({ db, secret, now: clock() });

  /**
   * Rate limits per client address and per account. The account is the stored one the input
   * resolves to, so spelling an email another way (case, username instead) does not reset it;
   * for an input that matches no account, the normalized input stands in, so unknown and known
   * accounts answer alike.
   */
  function limit(request: FastifyRequest, reply: FastifyReply, action: string, user: UserRow | undefined, input: string, account = perAccount) {
    const who = user?.id ?? `unknown:${input.trim().toLowerCase()}`;
    return enforce(db, reply, [[`${action}:ip:${request.ip}`, perIp], [`${action}:account:${who}`, account]], clock());
  }

  route.post('/api/auth/login', { config: { policy: 'public' }, schema: { body: LoginBody, response: { 200: successSchema(LoginResult) } } }, async (request, reply) => {
    const { emailOrUsername, password } = request.body;
    const user = await findByLogin(db, emailOrUsername);
    await limit(request, reply, 'login', user, emailOrUsername);
    // Unknown account and wrong password: the same answer after the same work.
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) throw new HttpError(401, messages.invalidCredentials);
    if (user.status !== 'active') throw new HttpError(403, messages.accountSuspended);
    await enforce(db, reply, [[`mail:${user.id}`, mailsPerAccount]], clock());
    const pin = await issuePin(challengeCtx(), user.id, 'login');
    try {
      await mailPin(db, mailer, user, 'login', pin);
    } catch (err) {
      request.log.error({ err }, 'sending the sign-in PIN failed');
      throw new HttpError(503, messages.mailFailed);
    }
    return ok({ emailOrUsername, pinExpiresInSeconds: PIN_TTL_MS / 1000 }, { message: request.t(messages.pinSent) });
  });

  route.post('/api/auth/verify-pin', { config: { policy: 'public' }, schema: { body: VerifyPinBody, response: { 200: successSchema(VerifyPinResult) } } }, async (request, reply) => {
    const { emailOrUsername, pin } = request.body;
    const user = await findByLogin(db, emailOrUsername);
    await limit(request, reply, 'verify-pin', user, emailOrUsername);
    if (!user || user.status !== 'active') throw new HttpError(401, messages.invalidPin);
    const check = await checkPin(challengeCtx(), user.id, 'login', pin);
    if (!check.ok) throw pinError(check);
    if (!(await consume(challengeCtx(), check.challenge.id))) throw new HttpError(401, messages.invalidPin);

    // A PIN that reached the stored address proves it: the account is verified from now on.
    await db.update(users).set({ verified: true }).where(eq(users.id, user.id));
    const token = await openSession(db, user.id, { userAgent: request.headers['user-agent'] ?? '', ip: request.ip }, clock());
    // The user as every later request will see it: one reading of the role for sign-in and policy.
    const auth = await authenticate(db, token, clock());
    if (!auth) throw new HttpError(401, messages.invalidPin);
    return ok({ token, user: toAuthUser(auth), type: user.type });
  });

  route.post('/api/auth/logout', { config: { policy: 'authenticated' } }, async (request) => {
    const { user, session } = caller(request);
    await revokeSession(db, user.id, session.id, clock());
    return ok(null, { message: request.t(messages.loggedOut) });
  });

  route.post('/api/auth/forgot-password', { config: { policy: 'public' }, schema: { body: ForgotPasswordBody, response: { 200: successSchema(ForgotPasswordResult) } } }, async (request, reply) => {
    const { email } = request.body;
    const user = await findByEmail(db, email);
    await enforce(db, reply, [[`forgot:ip:${request.ip}`, perIp]], clock());
    const answer = ok({ email }, { message: request.t(messages.resetPinSent) });
    if (!user || user.status !== 'active') return answer;
    // Over the account's mail limit the answer stays the same: it must not tell whether the account exists.
    if (!(await hit(db, `mail:${user.id}`, mailsPerAccount, clock()))) return answer;
    const pin = await issuePin(challengeCtx(), user.id, 'reset');
    // Not awaited: waiting for SMTP would make known accounts answer measurably slower.
    void mailPin(db, mailer, user, 'reset', pin).catch((err: unknown) => request.log.error({ err }, 'sending the reset PIN failed'));
    return answer;
  });

  route.post('/api/auth/verify-reset-pin', { config: { policy: 'public' }, schema: { body: VerifyResetPinBody, response: { 200: successSchema(VerifyResetPinResult) } } }, async (request, reply) => {
    const { email, pin } = request.body;
    const user = await findByEmail(db, email);
    await limit(request, reply, 'verify-reset', user, email);
    if (!user || user.status !== 'active') throw new HttpError(401, messages.invalidPin);
    const check = await checkPin(challengeCtx(), user.id, 'reset', pin);
    if (!check.ok) throw pinError(check);
    const tempToken = await issueResetToken(challengeCtx(), check.challenge.id);
    if (!tempToken) throw new HttpError(401, messages.invalidPin);
    return ok({ tempToken });
  });

  route.post('/api/auth/reset-password', { config: { policy: 'public' }, schema: { body: ResetPasswordBody, response: { 200: successSchema(ResetPasswordResult) } } }, async (request, reply) => {
    const { tempToken, pin, newPassword } = request.body;
    await enforce(db, reply, [[`reset:ip:${request.ip}`, perIp]], clock());
    const check = await checkResetToken(challengeCtx(), tempToken, pin);
    if (!check.ok) throw new HttpError(401, check.locked ? messages.pinLocked : messages.resetTokenInvalid);
    const userId = check.challenge.userId;
    await enforce(db, reply, [[`reset:account:${userId}`, perAccount]], clock());
    if (!(await consume(challengeCtx(), check.challenge.id))) throw new HttpError(401, messages.resetTokenInvalid);
    const passwordHash = await hashPassword(newPassword);
    const now = clock();
    await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    // Whoever knew the old password is signed out everywhere.
    await revokeAllSessions(db, userId, now);
    return ok({ passwordReset: true }, { message: request.t(messages.passwordResetDone) });
  });
}
