import { i18n, type MessageDescriptor } from '@lingui/core';
import { z } from 'zod/mini';
import { clearSession } from './session';
import type { Success } from '../contract/envelope';
import { toInterfaceLanguage } from '../contract/languages';
import { apiBase } from './base';
import { ApiError, send, type SendOptions, type Transport } from './send';
import { chosenLanguage, storedToken } from './storage';

export { ApiError, ValidationError } from './send';

export type RequestOptions = SendOptions;

/**
 * The server no longer accepts this token (expired, signed out elsewhere): if the page still holds
 * it, the session is over. A newer session, signed in since the call was sent, stays.
 */
export function endRejectedSession(token: string | null | undefined): void {
  if (token && token === storedToken()) clearSession({ rejected: true });
}

/**
 * The page's side of a call: token and language from localStorage, messages from Lingui. A visitor
 * who never chose a language hears the server in the one the interface shows (the installation's
 * default, api/interface-language.ts).
 */
export function pageTransport(): Transport {
  const token = storedToken();
  return {
    base: apiBase(),
    token,
    language: chosenLanguage() ?? toInterfaceLanguage(i18n.locale),
    translate: (descriptor) => i18n._(descriptor),
    onUnauthorized: () => endRejectedSession(token),
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
export async function requestData<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  options: RequestOptions & { fallback: MessageDescriptor | string },
): Promise<z.output<S>> {
  const { status, envelope } = await send(path, options, pageTransport());
  const data = z.safeParse(schema, envelope.data);
  const { fallback } = options;
  if (!data.success) throw new ApiError(typeof fallback === 'string' ? fallback : i18n._(fallback), status, envelope);
  return data.data;
}
