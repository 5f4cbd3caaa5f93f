import type { z } from 'zod/mini';
import {
  ForgotPasswordResult,
  LoginResult,
  ResetPasswordResult,
  VerifyPinResult,
  VerifyResetPinResult,
  type ForgotPasswordBody,
  type LoginBody,
  type ResetPasswordBody,
  type VerifyPinBody,
  type VerifyResetPinBody,
} from '../contract/auth';
import { messages } from '../contract/messages';
import { request, requestData } from './request';
import { toSessionUser, type SessionUser } from './user';

// Spec §5: a success without this data is a failure with the call's fixed message.
// The password step, the PIN step and the reset set or read the sign-in cookies (ADR 017): they are
// sent with credentials, which an API on another origin of the same site needs to see them.
const withCookies = { credentials: 'include' } as const;

export type LoginResult = z.infer<typeof LoginResult>;

/** Mails a sign-in PIN (spec §4: the first step). */
export function login(body: LoginBody, signal?: AbortSignal): Promise<LoginResult> {
  return requestData('/api/auth/login', LoginResult, { method: 'POST', body, signal, fallback: messages.loginFailed, ...withCookies });
}

/** The second step: the session's token and the user, whose type is taken from the response (spec §3). */
export async function verifyPin(body: VerifyPinBody, signal?: AbortSignal): Promise<{ token: string; user: SessionUser }> {
  const data = await requestData('/api/auth/verify-pin', VerifyPinResult, {
    method: 'POST',
    body,
    signal,
    fallback: messages.pinVerificationFailed,
    ...withCookies,
  });
  return { token: data.token, user: { ...toSessionUser(data.user), type: data.type } };
}

/** Ends the session on the server; `token` is passed because the caller may already have forgotten it locally. */
export async function logout(token: string | null): Promise<void> {
  await request('/api/auth/logout', { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : undefined });
}

/** Mails a reset PIN; the answer is the same whether or not the account exists. */
export async function requestPasswordReset(body: ForgotPasswordBody, signal?: AbortSignal): Promise<void> {
  await requestData('/api/auth/forgot-password', ForgotPasswordResult, { method: 'POST', body, signal, fallback: messages.resetRequestFailed });
}

export async function verifyResetPin(body: VerifyResetPinBody, signal?: AbortSignal): Promise<string> {
  const data = await requestData('/api/auth/verify-reset-pin', VerifyResetPinResult, {
    method: 'POST',
    body,
    signal,
    fallback: messages.pinVerificationFailed,
  });
  return data.tempToken;
}

export async function resetPassword(body: ResetPasswordBody, signal?: AbortSignal): Promise<void> {
  await requestData('/api/auth/reset-password', ResetPasswordResult, { method: 'POST', body, signal, fallback: messages.passwordResetFailed, ...withCookies });
}
