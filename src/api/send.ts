import type { MessageDescriptor } from '@lingui/core';
import { FieldErrorSchema, type FieldError, type Success } from '../contract/envelope';
import { messages } from '../contract/messages';
import { z } from 'zod/mini';

/**
 * The core of every API call (DESIGN §4), free of window, localStorage and React, so the page's
 * request() and the service worker's outbox replay run the same code: headers, JSON, the envelope,
 * ApiError and ValidationError. What differs between the two is handed in as a Transport.
 */

/**
 * A failed call (spec §8): the server's message or a fixed one, the HTTP status (0: no answer at all,
 * or one that is not JSON), and as details the parsed body, or the underlying error when there was no
 * usable body.
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

export interface SendOptions {
  method?: string;
  /**
   * Sent as JSON; a FormData (an upload) goes as it is, multipart with the boundary fetch picks.
   * Leave undefined to send no body.
   */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * The call's fixed message (spec §8), shown when the server names no reason; "Request failed"
   * otherwise. A string is an already translated message (the outbox stores them so).
   */
  fallback?: MessageDescriptor | string;
  /** 'include' for the sign-in calls, whose cookies must reach an API on another origin of the site too (ADR 017). */
  credentials?: RequestCredentials;
}

/** Who calls and how: the page reads these from localStorage, the service worker from Dexie's meta table. */
export interface Transport {
  /** Origin of the API without a trailing slash; '' for the app's own origin. */
  base: string;
  token: string | null;
  /** Accept-Language: the interface language (en | de). */
  language: string;
  /** Turns a fixed message into text: the page uses Lingui; the worker, which has no catalog, the English source. */
  translate: (descriptor: MessageDescriptor) => string;
  /** Told when the server answered 401 to a call sent with this transport's token, so the page can end a rejected session. */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

export interface Exchange {
  status: number;
  envelope: Success<unknown>;
}

const FieldErrorsSchema = z.array(FieldErrorSchema);

/** A descriptor's own English text: what the worker shows, since it loads no catalog. */
export function sourceText(descriptor: MessageDescriptor): string {
  return descriptor.message ?? descriptor.id;
}

/** DESIGN §4: the version an update or delete was based on (a reorder: its order's tag), as its If-Match header value. */
export function ifMatch(version: number | string): string {
  return `"${version}"`;
}

/** Spec §8: a refused upload names its reason in the answer's `error` where the server gives one, else in its message. */
export function uploadError(error: ApiError): ApiError {
  const said = (error.details as { error?: unknown } | undefined)?.error;
  return typeof said === 'string' && said ? new ApiError(said, error.status, error.details) : error;
}

/**
 * How long a call waits for its answer before it counts as unanswered (status 0), as a dropped
 * connection does: a connection that hangs (a dead Wi-Fi, a stalled mobile network) would otherwise
 * hold a person's save, or the outbox's whole drain, until the browser gives up minutes later.
 * Giving up is safe: a write goes again under its Idempotency-Key (ADR 016, ADR 019).
 */
export const ANSWER_WAIT_MS = 30_000;
/** An upload also gets the time its bytes take at a slow mobile rate (25 kB/s: 10 MiB in 7 minutes). */
const SLOW_BYTES_PER_MS = 25;

/** The time to wait for the answer to a call with this body. */
export function answerWait(body: unknown): number {
  let bytes = 0;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    for (const [, value] of body) bytes += typeof value === 'string' ? value.length : value.size;
  }
  return ANSWER_WAIT_MS + bytes / SLOW_BYTES_PER_MS;
}

/** Aborts when the caller's signal does or when the answer is overdue; `done` clears the clock. */
function answerClock(signal: AbortSignal | undefined, wait: number) {
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();
  const timer = setTimeout(() => controller.abort(new Error(`No answer within ${Math.round(wait / 1000)} s`)), wait);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function buildHeaders(transport: Transport, json: boolean, extra: Record<string, string> | undefined): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': transport.language });
  if (transport.token) headers.set('Authorization', `Bearer ${transport.token}`);
  // A FormData's Content-Type is fetch's to set: only it knows the multipart boundary.
  if (json) headers.set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return headers;
}

/** A caller that aborts wants its AbortError back, not a "network error". */
function rethrowIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

function failure(status: number, payload: unknown, fallback: string): ApiError {
  const body = isRecord(payload) ? payload : {};
  const message = typeof body.message === 'string' && body.message ? body.message : fallback;
  const errors = FieldErrorsSchema.safeParse(body.errors);
  if (status === 400 && errors.success) return new ValidationError(message, errors.data, payload);
  return new ApiError(message, status, payload);
}

/** Sends one call and returns the success envelope; anything else throws an ApiError. */
export async function send(path: string, options: SendOptions, transport: Transport): Promise<Exchange> {
  const { method = 'GET', body, signal, headers: extra, fallback = messages.requestFailed, credentials } = options;
  const hasBody = body !== undefined;
  const form = typeof FormData !== 'undefined' && body instanceof FormData;
  const headers = buildHeaders(transport, hasBody && !form, extra);
  const networkError = (cause: unknown) => new ApiError(transport.translate(messages.networkError), 0, cause);

  const clock = answerClock(signal, answerWait(body));
  let response: Response;
  let text: string;
  try {
    response = await (transport.fetch ?? fetch)(transport.base + path, {
      method,
      headers,
      body: form ? body : hasBody ? JSON.stringify(body) : undefined,
      signal: clock.signal,
      credentials,
    });
    text = await response.text();
  } catch (error) {
    rethrowIfAborted(signal);
    throw networkError(clock.signal.aborted ? clock.signal.reason : error);
  } finally {
    clock.done();
  }

  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    // A proxy in front that refuses the body's size refuses it every time: an answer, not a lost one.
    if (response.status === 413) throw new ApiError(transport.translate(messages.payloadTooLarge), 413, error);
    // Not JSON, whatever the status: not our API answering but something between it and us (a
    // captive portal's login page, a proxy's error page), so as good as no answer at all (status 0).
    throw networkError(error);
  }
  if (response.status === 401) transport.onUnauthorized?.();

  if (response.ok && isRecord(payload) && payload.success === true) return { status: response.status, envelope: payload as Success<unknown> };
  throw failure(response.status, payload, typeof fallback === 'string' ? fallback : transport.translate(fallback));
}
