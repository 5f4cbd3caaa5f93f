import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalData, db, readSessionMeta } from './database';
import { keepDeviceDataWithSession } from './device-session';
import { enqueue } from './outbox';
import { BACKOFF_MS, LOST_BACKOFF_MS } from './outbox-verdict';
import { OFFLINE_RETRY_MS, requestSync, resolve as resolveEntry, startSync } from './sync';
import { SYNCED_EVENT, type SyncedMessage } from './sync-messages';

// What app/main.tsx does at boot: a sign-out empties the device's data.
keepDeviceDataWithSession();

const A = '0190d6b0-0000-7000-8000-00000000000a';
const B = '0190d6b0-0000-7000-8000-00000000000b';
const C = '0190d6b0-0000-7000-8000-00000000000c';
const at = '2024-05-01T10:00:00.000Z';
const fetchMock = vi.fn<typeof fetch>();

async function queueOne(id = A): Promise<void> {
  const path = `/api/categories/${id}`;
  await enqueue({ resource: 'categories', entityId: id, kind: 'update', method: 'PUT', path, itemPath: path, body: { name: 'x' }, baseVersion: 1, label: { item: 'category', title: '' }, fallback: '' });
}

/** What the server answers to an update of A: a fresh Response each time, as fetch gives. */
const answered = async () => new Response(JSON.stringify({ success: true, data: { _id: A, version: 2, createdAt: at, updatedAt: at } }));
/** A proxy in front of the server that could not reach it. */
const badGateway = async () => new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });

/** A service worker controlling the page, as far as the page can see one. */
class FakeContainer extends EventTarget {
  controller: { postMessage: ReturnType<typeof vi.fn> } | null = null;
  register = vi.fn(async (_tag: string) => {});
  ready = Promise.resolve({ sync: { register: this.register } });
  startMessages = vi.fn();

  answer(message: Omit<SyncedMessage, 'type'>): void {
    this.dispatchEvent(new MessageEvent('message', { data: { type: 'SYNCED', ...message } }));
  }
}

const container = new FakeContainer();

beforeAll(() => {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
});

afterAll(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

beforeEach(async () => {
  await clearLocalData();
  container.controller = null;
  container.register.mockClear();
  localStorage.setItem('auth_token', 'tok-1');
  localStorage.setItem('language', 'de');
  fetchMock.mockReset().mockImplementation(answered);
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
});

describe('requestSync', () => {
  it('does nothing signed out', async () => {
    localStorage.removeItem('auth_token');
    await queueOne();

    expect(await requestSync()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('without a service worker drains here, with the page’s session', async () => {
    await queueOne();

    expect(await requestSync()).toMatchObject({ sent: 1, stopped: null });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([String(url), init?.method, new Headers(init?.headers).get('Authorization')]).toEqual([`/api/categories/${A}`, 'PUT', 'Bearer tok-1']);
  });

  it('tells the screens to read again when a replay sent something, and not when it sent nothing', async () => {
    const changed = vi.fn();
    window.addEventListener(SYNCED_EVENT, changed);
    await requestSync();
    expect(changed).not.toHaveBeenCalled();
    await queueOne();
    await requestSync();
    expect(changed).toHaveBeenCalledOnce();
    window.removeEventListener(SYNCED_EVENT, changed);
  });

  it('tells the screens to read again when a conflict is resolved, though nothing is sent', async () => {
    const changed = vi.fn();
    window.addEventListener(SYNCED_EVENT, changed);
    await queueOne();
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry!.seq!, { status: 'conflict', current: { _id: A, version: 2, createdAt: at, updatedAt: at, name: 'theirs' } });
    await resolveEntry.takeTheirs(entry!.seq!);
    expect(changed).toHaveBeenCalled();
    window.removeEventListener(SYNCED_EVENT, changed);
  });

  it('shares the token, language and API origin with the worker', async () => {
    await requestSync();
    expect(await readSessionMeta()).toEqual({ key: 'session', token: 'tok-1', language: 'de', base: '' });
  });

  it('with a service worker in control asks it, registers Background Sync, and waits for its drain', async () => {
    const postMessage = vi.fn(() => setTimeout(() => container.answer({ startedAt: Date.now(), sent: 1, stopped: null }), 10));
    container.controller = { postMessage };
    await queueOne();

    const result = await requestSync();

    expect(postMessage).toHaveBeenCalledWith({ type: 'SYNC' });
    expect(container.register).toHaveBeenCalledWith('outbox');
    expect(container.startMessages).toHaveBeenCalled();
    expect(result).toMatchObject({ sent: 1 });
    // The worker drained; the page sent nothing itself.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores an answer about a drain that began before it asked', async () => {
    const asked = Date.now();
    container.controller = {
      postMessage: vi.fn(() => {
        container.answer({ startedAt: asked - 1, sent: 0, stopped: null });
        setTimeout(() => container.answer({ startedAt: Date.now(), sent: 1, stopped: null }), 30);
      }),
    };
    await queueOne();

    expect(await requestSync()).toMatchObject({ sent: 1 });
  });

  it('sends a change whose answer was lost again at once, under the same key; a proxy’s HTML error page is no answer either', async () => {
    fetchMock.mockImplementationOnce(badGateway).mockImplementation(answered);
    await queueOne();

    expect(await requestSync()).toMatchObject({ sent: 1, stopped: null, retryAt: null });
    const keys = fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('tries again when a change whose answer was lost twice is due, a moment later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockImplementationOnce(badGateway).mockImplementation(answered);
    await queueOne();

    expect(await requestSync()).toMatchObject({ sent: 0, stopped: null, retryAt: Date.now() + LOST_BACKOFF_MS[0] });
    const retry = timers.mock.calls.findIndex(([, ms]) => ms === LOST_BACKOFF_MS[0]);
    expect(retry).toBeGreaterThanOrEqual(0);
    clearTimeout(timers.mock.results[retry]!.value as number);

    vi.setSystemTime(Date.now() + LOST_BACKOFF_MS[0]);
    (timers.mock.calls[retry]![0] as () => void)();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  it('once the connection is gone, tries again by itself: soon, then less often while it lasts, until it is back', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    for (const id of [A, B, C]) await queueOne(id);
    /** The next try the page set up after the n-th drain, stopped at once so that the test runs it. */
    const nextTry = (delay: number) => {
      const index = timers.mock.calls.findLastIndex(([, ms]) => ms === delay);
      expect(index).toBeGreaterThanOrEqual(0);
      clearTimeout(timers.mock.results[index]!.value as number);
      return timers.mock.calls[index]![0] as () => void;
    };

    expect(await requestSync()).toMatchObject({ sent: 0, stopped: 'offline' });
    nextTry(OFFLINE_RETRY_MS[0])();
    await vi.waitFor(() => expect(timers.mock.calls.some(([, ms]) => ms === OFFLINE_RETRY_MS[1])).toBe(true));

    fetchMock.mockImplementation(answered);
    nextTry(OFFLINE_RETRY_MS[1])();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
  });

  it('tries again when an entity the server failed is due, draining here', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ success: false, message: 'Broken' }), { status: 500 }));
    await queueOne();

    const result = await requestSync();

    expect(result).toMatchObject({ sent: 0, stopped: null, retryAt: Date.now() + BACKOFF_MS[0] });
    const retry = timers.mock.calls.findIndex(([, ms]) => ms === BACKOFF_MS[0]);
    expect(retry).toBeGreaterThanOrEqual(0);
    clearTimeout(timers.mock.results[retry]!.value as number);
  });

  it('tries again when the worker says an entity is due', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const due = Date.now() + 90_000;
    container.controller = { postMessage: vi.fn(() => setTimeout(() => container.answer({ startedAt: Date.now(), sent: 0, stopped: null, retryAt: due }), 10)) };
    await queueOne();

    expect(await requestSync()).toMatchObject({ retryAt: due });
    const retry = timers.mock.calls.findIndex(([, ms]) => typeof ms === 'number' && ms > 60_000 && ms <= 90_000);
    expect(retry).toBeGreaterThanOrEqual(0);
    clearTimeout(timers.mock.results[retry]!.value as number);
  });

  it('offline only registers Background Sync', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const postMessage = vi.fn();
    container.controller = { postMessage };

    expect(await requestSync()).toBeNull();
    expect(container.register).toHaveBeenCalledWith('outbox');
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('drains here when the worker does not answer in 3 s (an older worker that knows no SYNC)', async () => {
    container.controller = { postMessage: vi.fn() };
    await queueOne();

    expect(await requestSync()).toMatchObject({ sent: 1 });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('ends the session the worker’s replay found rejected', async () => {
    localStorage.setItem('auth_user', '{}');
    await db.records.put({ resource: 'categories', id: A, row: { _id: A, version: 1 }, fetchedAt: 1 });
    container.controller = { postMessage: vi.fn() };
    void requestSync();
    await vi.waitFor(() => expect(container.controller!.postMessage).toHaveBeenCalled());

    container.answer({ startedAt: Date.now(), sent: 0, stopped: 'unauthorized', rejectedToken: 'tok-1' });

    expect(localStorage.getItem('auth_token')).toBeNull();
    await vi.waitFor(async () => expect(await db.records.count()).toBe(0));
  });
});

describe('startSync', () => {
  it('replays at start, when the device is back online and when the tab is visible again', async () => {
    await queueOne();
    const stop = startSync();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await queueOne();
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));

    await queueOne();
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));

    stop();
    await queueOne();
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});
