// IndexedDB for Dexie (src/db), in memory.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';

// Files share their worker's packages (React, Dexie, happy-dom load once), but each evaluates our
// own modules afresh: a module's state (the toasts, a machine's actor) is never an earlier file's.
vi.resetModules();

// Each test file starts as on a new device, though files share a worker: no databases, no storage.
// A database a module still holds open closes on the deletion (Dexie gives way to it) and opens
// again, empty, when it is next used.
beforeAll(async () => {
  // Files in Node's environment (`@vitest-environment node`) have no storage.
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  const databases = await indexedDB.databases();
  await Promise.all(
    databases.map(
      ({ name }) =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase(name!);
          request.addEventListener('success', () => resolve());
          request.addEventListener('error', () => reject(request.error));
        }),
    ),
  );
});

// A timer an earlier file left running (the sync's retry a few seconds after a drain found the
// connection gone) would fire into the next file's device and send its outbox: each file's timers
// end with the file.
type Timeout = ReturnType<typeof setTimeout>;
type Handler = (...args: unknown[]) => void;
const timers = globalThis as unknown as {
  setTimeout: (handler: Handler, ms?: number, ...args: unknown[]) => Timeout;
  clearTimeout: (id?: Timeout) => void;
  /** Set once per worker, since files share it: the timers not yet run or cleared. */
  pendingTimers?: Set<Timeout>;
};
if (!timers.pendingTimers) {
  const pending = new Set<Timeout>();
  const { setTimeout: set, clearTimeout: clear } = timers;
  timers.setTimeout = (handler, ms, ...args) => {
    const id = set(() => {
      pending.delete(id);
      handler(...args);
    }, ms);
    pending.add(id);
    return id;
  };
  timers.clearTimeout = (id) => {
    if (id !== undefined) pending.delete(id);
    clear(id);
  };
  timers.pendingTimers = pending;
}
afterAll(() => {
  for (const id of timers.pendingTimers!) timers.clearTimeout(id);
});

// findBy and waitFor wait 1 s by default. A read of this device's data goes through fake-indexeddb,
// whose steps each wait a turn of the event loop: with two workers busy, a dialog's pictures waiting
// on the device (two reads, one after the other) were not there after 1 s in one full run today.
configure({ asyncUtilTimeout: 3000 });

// Messages fall back to their English source text, so tests need no compiled catalog.
beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

// Globals are off in Vitest, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
