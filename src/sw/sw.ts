import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { send, sourceText } from '../api/send';
import { SERVER_PAGES } from '../contract/server-pages';
import { readSessionMeta } from '../db/database';
import { drain, type DrainResult, type Send } from '../db/outbox-drain';
import { SYNC_TAG, type SyncedMessage } from '../db/sync-messages';

/** Background Sync's event (not in TypeScript's WebWorker library). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

cleanupOutdatedCaches();
// The build replaces this exact expression with the precache list, so the name cannot change.
// oxlint-disable-next-line no-underscore-dangle
precacheAndRoute(self.__WB_MANIFEST);

// Every app URL opens the single-page shell; an /api/ URL or the API's reference opened in a tab must still reach the server.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [...SERVER_PAGES] }));

/**
 * Replays the outbox (DESIGN §6) with the session the page shared in Dexie's meta table, through
 * the same send() the page's request() uses, and tells every page how it went.
 */
async function replay(): Promise<DrainResult | null> {
  const session = await readSessionMeta();
  if (!session?.token) return null;
  let rejected = false;
  const transport = {
    base: session.base,
    token: session.token,
    language: session.language,
    // The worker loads no catalog: the few fixed messages it could need stay English.
    translate: sourceText,
    onUnauthorized: () => (rejected = true),
  };
  const workerSend: Send = async (call) =>
    (await send(call.path, { method: call.method, body: call.body, headers: call.headers, fallback: call.fallback }, transport)).envelope;
  const result = await drain(workerSend);
  const message: SyncedMessage = { type: 'SYNCED', startedAt: result.startedAt, sent: result.sent, stopped: result.stopped };
  if (result.retryAt !== null) message.retryAt = result.retryAt;
  if (rejected) message.rejectedToken = session.token;
  const clients = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  // A Client's postMessage has no target origin (the rule knows only window.postMessage).
  // oxlint-disable-next-line unicorn/require-post-message-target-origin
  for (const client of clients) client.postMessage(message);
  return result;
}

/** A back-off ending this soon is waited out inside a Background Sync event: a closed tab keeps no timer, and the browser's own next try is minutes away. */
const WAIT_IN_SYNC_MS = 30_000;
/** Browsers end a sync event after a few minutes; it stops waiting well before. */
const SYNC_EVENT_MS = 2 * 60_000;

/** Replays, and again each time an entity's short back-off (a lost answer's: ADR 019) ends, while the event lasts. */
async function replayWhileDue(): Promise<DrainResult | null> {
  const until = Date.now() + SYNC_EVENT_MS;
  for (;;) {
    const result = await replay();
    const due = result?.stopped === null ? result.retryAt : null;
    if (due === null || due - Date.now() > WAIT_IN_SYNC_MS || due > until) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
  }
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== SYNC_TAG) return;
  // Rejecting tells the browser to try again later, with its own back-off: also when an entity
  // waits out a longer one of its own, since a closed tab schedules no next try.
  sync.waitUntil(
    replayWhileDue().then((result) => {
      if (result?.stopped === 'offline' || result?.stopped === 'unavailable') throw new Error(`Outbox replay stopped: ${result.stopped}`);
      if (result?.retryAt != null) throw new Error('Outbox replay waits for a back-off');
    }),
  );
});

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  // registerType 'prompt': a new worker waits until the user accepts the update banner.
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'SYNC') event.waitUntil(replay());
});

// The first install takes over the open page at once, so it works offline without a reload.
clientsClaim();
