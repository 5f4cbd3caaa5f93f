import { whenIdle } from './idle';
import { ChangeSchema, EVENTS_PATH, LIVE_EVENTS, type Change } from '../contract/live';
import { pageTransport } from './request';
import { isAuthenticated, subscribeSession } from './session';

/** A change of something this session may read, or `reset`: some may have been missed, read again what is on show. */
export type LiveEvent = Change | 'reset';
type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
/** Set by the app at its start (app/main.tsx): screens rendered elsewhere (tests) listen without a stream. */
let enabled = false;
let running: AbortController | null = null;
let lastId: string | null = null;
/** The session the stream is of: another one's would not resume this one's. */
let listeningAs: string | null = null;
let failures = 0;
/** Cancels the connection waiting to be made (after a quiet moment, or a back-off). */
let retry: (() => void) | undefined;

/** How long a screen waits for more of a burst of changes before it reads once. */
export const LIVE_SETTLE_MS = 80;
/** Back-off after a lost stream: 1 s, 2 s, 4 s … at most 30 s. */
const retryDelay = () => Math.min(30_000, 1000 * 2 ** Math.min(failures, 5));

/**
 * Hears the changes of what this session may read (contract/live.ts) while anything on screen
 * listens. Quiet when nobody listens, in the background, offline or signed out; coming back, it
 * resumes after the last change it heard (`Last-Event-ID`), and the server tells it to read again
 * when that is too long ago.
 */
export function onLiveChange(listener: Listener): () => void {
  listeners.add(listener);
  adjust();
  return () => {
    listeners.delete(listener);
    adjust();
  };
}

/** Lets the screens' listeners be heard: the app's start calls it once. */
export function enableLiveUpdates(): void {
  enabled = true;
  adjust();
}

const wanted = () => enabled && listeners.size > 0 && isAuthenticated() && document.visibilityState === 'visible' && navigator.onLine;

function adjust() {
  if (wanted()) {
    // Once the screen has what it opened with: the stream is for what changes after.
    if (!running && retry === undefined)
      retry = whenIdle(() => {
        retry = undefined;
        if (wanted() && !running) void connect();
      }, 2000);
  } else {
    retry?.();
    retry = undefined;
    running?.abort();
    running = null;
  }
}

function tell(event: LiveEvent) {
  for (const listener of listeners) listener(event);
}

function heard({ id, event, data }: { id?: string; event?: string; data: string }) {
  if (id) lastId = id;
  if (event === LIVE_EVENTS.reset) return tell('reset');
  if (event !== LIVE_EVENTS.change) return;
  const change = ChangeSchema.safeParse(JSON.parse(data));
  if (change.success) tell(change.data);
}

async function connect() {
  const controller = new AbortController();
  running = controller;
  const { base, token } = pageTransport();
  listeningAs = token;
  try {
    const response = await fetch(`${base}${EVENTS_PATH}`, {
      headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}`, ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
    failures = 0;
    // Loaded with the first stream, not with the sign-in page.
    const { createParser } = await import('eventsource-parser');
    const parser = createParser({ onEvent: heard });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch {
    failures += 1;
  } finally {
    if (running === controller) running = null;
  }
  if (controller.signal.aborted || !wanted()) return;
  const timer = setTimeout(() => {
    retry = undefined;
    adjust();
  }, retryDelay());
  retry = () => clearTimeout(timer);
}

if (typeof window !== 'undefined') {
  for (const event of ['online', 'offline'] as const) window.addEventListener(event, adjust);
  document.addEventListener('visibilitychange', adjust);
  subscribeSession(() => {
    if (pageTransport().token !== listeningAs) {
      lastId = null;
      running?.abort();
      running = null;
    }
    adjust();
  });
}
