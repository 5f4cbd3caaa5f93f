import { i18n, type MessageDescriptor } from '@lingui/core';
import type { z } from 'zod';
import { clearSession } from '../app/session';
import { FieldErrorSchema, type FieldError, type Success } from '../contract/envelope';
import { messages } from '../contract/messages';
import { storedLanguage, storedToken } from './storage';

/**
 * A failed call (spec §8): the server's message or a fixed one, the HTTP status (0: no answer at all),
 * and as details the parsed body, or the underlying error when there was no usable body.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A 400 whose body names the fields that failed validation. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly errors: FieldError[],
    details: unknown,
  ) {
    super(message, 400, details);
  }
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON; leave undefined to send no body. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The call's fixed message (spec §8), shown when the server names no reason; "Request failed" otherwise. */
  fallback?: MessageDescriptor;
}

const FieldErrorsSchema = FieldErrorSchema.array();

function apiBase(): string {
  return (import.meta.env.VITE_API_BASE ?? '').replace(/\/+$/, '');
}

function buildHeaders(hasBody: boolean, extra: Record<string, string> | undefined): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': storedLanguage() });
  const token = storedToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (hasBody) headers.set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

/** A caller that aborts wants its AbortError back, not a "network error". */
function rethrowIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

function networkError(status: number, cause?: unknown): ApiError {
  return new ApiError(i18n._(messages.networkError), status, cause);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failure(status: number, payload: unknown, fallback: MessageDescriptor): ApiError {
  const body = isRecord(payload) ? payload : {};
  const message = typeof body.message === 'string' && body.message ? body.message : i18n._(fallback);
  const errors = FieldErrorsSchema.safeParse(body.errors);
  if (status === 400 && errors.success) return new ValidationError(message, errors.data, payload);
  return new ApiError(message, status, payload);
}

/** The server no longer accepts the token we sent (expired, signed out elsewhere): the session is over. */
function endRejectedSession(sent: Headers): void {
  const token = storedToken();
  if (token && sent.get('Authorization') === `Bearer ${token}`) clearSession();
}

async function exchange(path: string, options: RequestOptions): Promise<{ status: number; envelope: Success<unknown> }> {
  const { method = 'GET', body, signal, headers: extra, fallback = messages.requestFailed } = options;
  const hasBody = body !== undefined;
  const headers = buildHeaders(hasBody, extra);

  let response: Response;
  try {
    response = await fetch(apiBase() + path, {
      method,
      headers,
      body: hasBody ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (error) {
    rethrowIfAborted(signal);
    throw networkError(0, error);
  }
  if (response.status === 401) endRejectedSession(headers);

  let payload: unknown;
  try {
    payload = JSON.parse(await response.text());
  } catch (error) {
    rethrowIfAborted(signal);
    throw networkError(response.status, error);
  }

  if (response.ok && isRecord(payload) && payload.success === true) return { status: response.status, envelope: payload as Success<unknown> };
  throw failure(response.status, payload, fallback);
}

/** Calls the API (spec §7, DESIGN §4) and returns the success envelope; anything else throws an ApiError. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<Success<T>> {
  const { envelope } = await exchange(path, options);
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
  const { status, envelope } = await exchange(path, options);
  const data = schema.safeParse(envelope.data);
  if (!data.success) throw new ApiError(i18n._(options.fallback), status, envelope);
  return data.data;
}
