import { ApiError, uploadError, ValidationError } from '../api/send';
import type { FieldError } from '../contract/envelope';
import { orderTag } from '../contract/order';
import type { OutboxEntry, WireRow } from './database';
import { isWireRow } from './outbox-cache';
import { reorderIds } from './outbox-reorder';

/**
 * What the drain (outbox-drain.ts) makes of an answer other than 2xx, or of none: the drain stops,
 * or the entry waits (a back-off), is in conflict, failed, or was done after all.
 */

/**
 * After the n-th answer that says "try again later" (5xx, 408, 425, a key still in flight), the
 * entity waits BACKOFF_MS[n - 1] before its entry is sent again: about 1 h 11 min in all, enough
 * for a deploy or a database restart. The answer after the last wait fails the entry. The first
 * wait is short (ADR 019): most such answers are a moment's trouble (a restarting instance, a
 * failover), nothing was written (ADR 016), and a person on a phone watches the change wait.
 */
export const BACKOFF_MS = [5_000, 60_000, 10 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;

/**
 * An entry sent twice in a row without an answer (ADR 019) waits LOST_BACKOFF_MS[n - 1] after the
 * n-th time, the last one repeating: a moment at first, since resending is safe (the server answers
 * a repeated key from the first, ADR 016) and a phone's connection comes back in seconds; longer
 * while only this entry goes unanswered (one too large for a proxy, say), so it costs little. It
 * never fails the entry: no answer says nothing against the change.
 */
export const LOST_BACKOFF_MS = [1_000, 2_000, 5_000, 15_000, 60_000, 5 * 60_000] as const;

function fieldErrors(error: ApiError): FieldError[] {
  if (error instanceof ValidationError) return error.errors;
  const errors = (error.details as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]).filter((e) => typeof e?.path === 'string' && typeof e.message === 'string') : [];
}

type Held = { later: true } | { conflict: WireRow } | { order: string[] } | { failed: true };
/** What the drain does with an answer. Only two stop it (offline is the drain's own finding: outbox-drain.ts StopReason). */
type Verdict = { stop: 'unavailable' | 'unauthorized' } | Held | { done: true };

/** The order a reorder's 409 says the server holds (`data: { [field]: ids }`), or null. */
function orderOf(entry: OutboxEntry, current: unknown): string[] | null {
  const [field] = reorderIds(entry);
  const ids = (current as Record<string, unknown> | null | undefined)?.[field];
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? (ids as string[]) : null;
}

/** An entry sent twice without an answer waits a little longer each time (LOST_BACKOFF_MS); its entity's later entries wait behind it. */
export function lostAgain(entry: OutboxEntry): Pick<OutboxEntry, 'lost' | 'retryAt'> {
  const lost = (entry.lost ?? 0) + 1;
  return { lost, retryAt: Date.now() + LOST_BACKOFF_MS[Math.min(lost, LOST_BACKOFF_MS.length) - 1]! };
}

/** What an answer other than 2xx means for the entry, or for the whole drain. */
export function judge(entry: OutboxEntry, error: ApiError): Verdict {
  const { status } = error;
  if (status === 401) return { stop: 'unauthorized' };
  if (status === 429) return { stop: 'unavailable' };
  if (status === 409) {
    const current = (error.details as { data?: unknown } | undefined)?.data;
    if (entry.kind === 'reorder') {
      const order = orderOf(entry, current);
      if (!order) return { later: true };
      // The server already holds this very order (ours, sent before without hearing back).
      return orderTag(order) === orderTag(reorderIds(entry)[1]) ? { done: true } : { order };
    }
    // Without the current row it is the same key still in flight (DESIGN §4), not a version conflict.
    return isWireRow(current, entry.entityId) ? { conflict: current } : { later: true };
  }
  if (status === 408 || status === 425 || status >= 500) return { later: true };
  // Deleting what is already gone did what it was meant to.
  if (status === 404 && entry.kind === 'delete') return { done: true };
  return { failed: true };
}

/** What an answer other than 2xx leaves in the entry. */
export function held(entry: OutboxEntry, verdict: Held, error: ApiError): Partial<OutboxEntry> {
  const { message, status } = entry.kind === 'upload' ? uploadError(error) : error;
  if ('conflict' in verdict) return { status: 'conflict', current: verdict.conflict, error: { message, errors: [], status } };
  if ('order' in verdict) return { status: 'conflict', currentOrder: verdict.order, error: { message, errors: [], status } };
  // The server's data beside its message (an upload's limits: maxBytes) tells the person more.
  const data = (error.details as { data?: unknown } | undefined)?.data;
  const failed = { status: 'failed' as const, error: { message, errors: fieldErrors(error), status, ...(data === undefined ? {} : { data }) } };
  if ('failed' in verdict) return failed;
  const attempts = entry.attempts + 1;
  // After the last wait it is a refusal like any other: the person retries or discards it.
  return attempts < MAX_ATTEMPTS ? { attempts, retryAt: Date.now() + BACKOFF_MS[attempts - 1]! } : { ...failed, attempts, retryAt: undefined };
}
