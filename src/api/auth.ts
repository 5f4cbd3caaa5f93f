import type { z } from 'zod/mini';
import * as auth from '../contract/auth';
import type { ForgotPasswordBody, LoginBody, ResetPasswordBody, VerifyPinBody, VerifyResetPinBody } from '../contract/auth';
import { call } from './action';
import { toSessionUser, type SessionUser } from './user';

// Spec §5: a success without this data is a failure with the call's fixed message.
// The password step, the PIN step and the reset set or read the sign-in cookies (ADR 017): they are
// sent with credentials, which an API on another origin of the same site needs to see them.
const withCookies = { credentials: 'include' } as const;

export type LoginResult = z.infer<typeof auth.LoginResult>;

/** Mails a sign-in PIN (spec §4: the first step). */
export async function login(body: LoginBody, signal?: AbortSignal): Promise<LoginResult> {
  return (await call(auth.login, { body }, { signal, ...withCookies })).data;
}

/** The second step: the session's token and the user, whose type is taken from the response (spec §3). */
export async function verifyPin(body: VerifyPinBody, signal?: AbortSignal): Promise<{ token: string; user: SessionUser }> {
  const { data } = await call(auth.verifyPin, { body }, { signal, ...withCookies });
  return { token: data.token, user: { ...toSessionUser(data.user), type: data.type } };
}

/** Ends the session on the server; `token` is passed because the caller may already have forgotten it locally. */
export async function logout(token: string | null): Promise<void> {
  await call(auth.logout, {}, { headers: token ? { Authorization: `Bearer ${token}` } : undefined });
}

/** Mails a reset PIN; the answer is the same whether or not the account exists. */
export async function requestPasswordReset(body: ForgotPasswordBody, signal?: AbortSignal): Promise<void> {
  await call(auth.forgotPassword, { body }, { signal });
}

export async function verifyResetPin(body: VerifyResetPinBody, signal?: AbortSignal): Promise<string> {
  return (await call(auth.verifyResetPin, { body }, { signal })).data.tempToken;
}

export async function resetPassword(body: ResetPasswordBody, signal?: AbortSignal): Promise<void> {
  await call(auth.resetPassword, { body }, { signal, ...withCookies });
}
