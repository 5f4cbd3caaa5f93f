import { followSession } from '../api/session';

/**
 * The device's IndexedDB, loaded on first use: the sign-in route, where every session starts,
 * must not carry Dexie (its budget is 2× a bare React page).
 */
function onDevice(what: string, task: (database: typeof import('./database')) => Promise<void>): void {
  import('./database').then(task).catch((error: unknown) => console.warn(`Could not ${what}`, error));
}

/** A sign-in claims the unsent changes left on this device; a sign-out empties what it holds (api/session.ts `clearSession`). */
export function keepDeviceDataWithSession(): void {
  followSession({
    started: (userId) => onDevice('check the unsent changes', (database) => database.claimUnsent(userId)),
    ended: (keepUnsentOf) => onDevice('clear the local data', (database) => database.clearLocalData(keepUnsentOf)),
  });
}
