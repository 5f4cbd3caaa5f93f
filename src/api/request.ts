import { i18n, type MessageDescriptor } from '@lingui/core';
import type { z } from 'zod';
import { clearSession } from '../app/session';
import type { Success } from '../contract/envelope';
import { apiBase } from './base';
import { ApiError, send, type SendOptions, type Transport } from './send';
import { storedLanguage, storedToken } from './storage';

export { ApiError, ValidationError } from './send';

export type RequestOptions = SendOptions;

/** The server no longer accepts the token we sent (expired, signed out elsewhere): the session is over. */
function endRejectedSession(sent: Headers): void {
  const token = storedToken();
  if (token && sent.get('Authorization') === `Bearer ${token}`) clearSession({ rejected: true });
}

/** The page's side of a call: token and language from localStorage, messages from Lingui. */
export function pageTransport(): Transport {
  return {
    base: apiBase(),
    token: storedToken(),
    language: storedLanguage(),
    translate: (descriptor) => i18n._(descriptor),
    onUnauthorized: endRejectedSession,
  };
}

/** Calls the API (spec §7, DESIGN §4) and returns the success envelope; anything else throws an ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<Success<T>> {
  const { envelope } = await send(path, options, pageTransport());
  return envelope as Success<T>;
}

/**
 * Spec §5: a call that must answer with data of this shape. A success without it fails too, with the
 * call's fixed message.
 */
export async function requestData<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions & { fallback: MessageDescriptor },
): Promise<z.output<S>> {
  const { status, envelope } = await send(path, options, pageTransport());
  const data = schema.safeParse(envelope.data);
  if (!data.success) throw new ApiError(i18n._(options.fallback), status, envelope);
  return data.data;
}
