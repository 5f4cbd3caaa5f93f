import { ApiError, endRejectedSession, pageTransport, request } from '../api/request';
import { storedToken } from '../api/storage';
import { readSessionMeta, writeSessionMeta, type WireRow } from './database';
import { entityEntries } from './outbox';
import { rememberServerRow } from './outbox-cache';
import * as conflicts from './outbox-conflicts';
import { drain, type DrainResult, type Send } from './outbox-drain';
import { SYNC_TAG, SYNCED_EVENT, type SyncedMessage, type SyncRequest } from './sync-messages';

/**
 * The page's side of replay (DESIGN §6): it asks the service worker to drain the outbox, or drains
 * it itself where no worker controls the page (development, first visit, a browser without one).
 * Either way the drain is db/outbox-drain.ts's, under its lock, over api/send.ts.
 */

/** How long the page waits for the worker's answer before draining itself (an old worker may not know SYNC). */
const WORKER_ANSWER_MS = 3000;
/**
 * After a drain found the connection gone (outbox-drain.ts OFFLINE_AFTER), the next try while the
 * page stays open, after the n-th such drain in a row (the last repeating): soon, since a phone's
 * connection often returns within seconds without an `online` event (a tunnel, a captive portal
 * accepted), then less often while it stays away (ADR 019). `online` tries at once anyway.
 */
export const OFFLINE_RETRY_MS = [5_000, 15_000, 30_000, 60_000] as const;
/** After a 429: the server wants this device to slow down. */
const SLOW_DOWN_MS = 30_000;

/** The page's Send: request() ends a session the server rejects, as every other call does. */
const pageSend: Send = (call) =>
  request(call.path, { method: call.method, body: call.body, headers: call.headers, fallback: call.fallback });

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

let waiting: { since: number; resolve: (result: DrainResult) => void }[] = [];
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** Drains in a row that found the connection gone. */
let offlineDrains = 0;
let listening = false;

/** Screens read their data again: what the device shows has changed under them. */
const announceChange = () => window.dispatchEvent(new Event(SYNCED_EVENT));

function afterDrain(result: DrainResult): void {
  if (result.sent > 0) announceChange();
  scheduleRetry(result);
}

/** The next try while the page stays open: after the connection was gone or the server asked to slow down, or when an entity's back-off ends. */
function scheduleRetry(result: DrainResult): void {
  offlineDrains = result.stopped === 'offline' ? offlineDrains + 1 : 0;
  // One reading of the clock: a second one a millisecond later made the wait 4,999 ms instead of 5,000.
  const now = Date.now();
  let at = result.retryAt;
  if (result.stopped === 'offline') at = now + OFFLINE_RETRY_MS[Math.min(offlineDrains, OFFLINE_RETRY_MS.length) - 1]!;
  if (result.stopped === 'unavailable') at = now + SLOW_DOWN_MS;
  if (at === null) return;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void requestSync(), Math.max(0, at - now));
}

function onWorkerMessage(event: MessageEvent): void {
  const message = event.data as Partial<SyncedMessage> | null;
  if (message?.type !== 'SYNCED' || typeof message.startedAt !== 'number') return;
  endRejectedSession(message.rejectedToken);
  const result: DrainResult = { startedAt: message.startedAt, sent: message.sent ?? 0, stopped: message.stopped ?? null, retryAt: message.retryAt ?? null };
  afterDrain(result);
  const ready = waiting.filter((waiter) => waiter.since <= result.startedAt);
  waiting = waiting.filter((waiter) => waiter.since > result.startedAt);
  for (const waiter of ready) waiter.resolve(result);
}

function listenToWorker(): void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (listening || !container) return;
  listening = true;
  container.addEventListener('message', onWorkerMessage);
  container.startMessages();
}

/** The first drain the worker starts at or after `since`, or null when it does not answer in time. */
function workerAnswer(since: number): Promise<DrainResult | null> {
  return new Promise((resolve) => {
    const waiter = { since, resolve };
    waiting.push(waiter);
    setTimeout(() => {
      if (!waiting.includes(waiter)) return;
      waiting = waiting.filter((other) => other !== waiter);
      resolve(null);
    }, WORKER_ANSWER_MS);
  });
}

async function drainHere(): Promise<DrainResult> {
  const result = await drain(pageSend);
  afterDrain(result);
  return result;
}

/** The worker replays with what the page knows: token, language, API origin. */
async function shareSession(): Promise<void> {
  const { token, language, base } = pageTransport();
  const stored = await readSessionMeta();
  if (stored?.token === token && stored.language === language && stored.base === base) return;
  await writeSessionMeta({ token, language, base });
}

/**
 * Asks for the outbox to be replayed: by the controlling service worker (Background Sync where the
 * browser has it, a SYNC message always), else here. Resolves with the drain that saw everything
 * stored before the call, or null when none ran (signed out, offline, no answer).
 */
export async function requestSync(): Promise<DrainResult | null> {
  if (!storedToken()) return null;
  // Offline when asked: Background Sync (or the next 'online' event) takes it from here.
  const online = navigator.onLine;
  await shareSession();
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  const controller = container?.controller;
  if (container && controller) {
    listenToWorker();
    const since = Date.now();
    const registration = (await container.ready) as ServiceWorkerRegistration & { sync?: SyncManagerLike };
    // Background Sync replays even after the tab is closed, once the device is back online.
    await registration.sync?.register(SYNC_TAG).catch(() => undefined);
    if (!online) return null;
    // A worker's postMessage has no target origin (the rule knows only window.postMessage).
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    controller.postMessage({ type: 'SYNC' } satisfies SyncRequest);
    return (await workerAnswer(since)) ?? drainHere();
  }
  if (!online) return null;
  return drainHere();
}

/**
 * Replays on app start, when the device comes back online and when the tab becomes visible.
 * Returns the function that stops listening.
 */
const sync = () => void requestSync();

export function startSync(): () => void {
  listenToWorker();
  const onVisible = () => {
    if (document.visibilityState === 'visible') sync();
  };
  window.addEventListener('online', sync);
  document.addEventListener('visibilitychange', onVisible);
  sync();
  return () => {
    window.removeEventListener('online', sync);
    document.removeEventListener('visibilitychange', onVisible);
    clearTimeout(retryTimer);
  };
}

/** Fetches what the server holds now, after a local change was dropped; offline the cache waits for the next read. */
async function refresh(entry: { resource: string; entityId: string; itemPath: string }): Promise<void> {
  try {
    const { data } = await request<WireRow>(entry.itemPath);
    await rememberServerRow(entry.resource, entry.entityId, data ?? null);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) await rememberServerRow(entry.resource, entry.entityId, null);
  }
}

/** The sync panel's and the editor's answers to a conflict or a refusal. */
export const resolve = {
  async keepMine(seq: number): Promise<void> {
    await conflicts.keepMine(seq);
    announceChange();
    void requestSync();
  },
  async takeTheirs(seq: number): Promise<void> {
    await conflicts.takeTheirs(seq);
    announceChange();
    void requestSync();
  },
  async retry(seq: number): Promise<void> {
    await conflicts.retry(seq);
    announceChange();
    void requestSync();
  },
  async discard(seq: number): Promise<void> {
    const entry = await conflicts.discard(seq);
    // A dropped reorder has no row to fetch: the next read of the list brings the server's order.
    if (entry && (entry.kind === 'update' || entry.kind === 'delete')) await refresh(entry);
    announceChange();
    void requestSync();
  },
  /** The editor's "take theirs", which knows the entity, not the entry. */
  async takeTheirsOf(resource: string, entityId: string): Promise<void> {
    const conflict = (await entityEntries(resource, entityId)).find((entry) => entry.status === 'conflict');
    if (conflict?.seq !== undefined) await this.takeTheirs(conflict.seq);
  },
};
