import { i18n } from '@lingui/core';
import { z } from 'zod/mini';
import type { ActionArgs, ActionData, AnyAction } from '../contract/action';
import { messages } from '../contract/messages';
import { fillPath } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import { queryString } from './paths';
import { ApiError, request, type RequestOptions } from './request';

/** How a call goes beyond its input: an upload's form, the sign-in cookies, a key of its own, a signal. */
export interface CallOptions extends Pick<RequestOptions, 'signal' | 'headers' | 'credentials' | 'fallback'> {
  /** An upload's parts, for an action that declares `multipart`. */
  form?: FormData;
  /** The Idempotency-Key of a change; a fresh one when not given. */
  idempotencyKey?: string;
}

/** Where an action is called with these arguments: its path filled in, its query appended. */
export function actionPath<A extends AnyAction>(action: A, args: ActionArgs<A>): string {
  const params = (args.params ?? {}) as Record<string, string>;
  return fillPath(action.path, params) + queryString((args.query ?? {}) as Record<string, unknown>);
}

/**
 * Calls an action (contract/action.ts) from the page: the path from its parameters, the body as
 * JSON (or the form of an upload), an Idempotency-Key on every change, the action's own failure
 * message, and the answer's data checked against its schema — a success without it fails too.
 */
export async function call<A extends AnyAction>(
  action: A,
  args: ActionArgs<A>,
  options: CallOptions = {},
): Promise<{ data: ActionData<A>; message?: string }> {
  const { form, idempotencyKey, headers, ...rest } = options;
  // A caller may name the failure more closely than the action (the language switcher's update of the profile).
  const fallback = options.fallback ?? action.failed ?? messages.requestFailed;
  const changes = action.method !== 'GET';
  const answer = await request<unknown>(actionPath(action, args), {
    ...rest,
    method: action.method,
    body: form ?? args.body,
    headers: changes ? { 'Idempotency-Key': idempotencyKey ?? uuidv7(), ...headers } : headers,
    fallback,
  });
  const data = z.safeParse(action.answer, answer.data);
  if (!data.success) throw new ApiError(typeof fallback === 'string' ? fallback : i18n._(fallback), 200, answer);
  return { data: data.data as ActionData<A>, message: answer.message };
}
