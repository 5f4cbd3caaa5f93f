import type { StopReason } from './outbox-drain';

/** What the page and the service worker say to each other about the outbox (both import this file). */

/** The Background Sync tag the page registers and the worker answers. */
export const SYNC_TAG = 'outbox';

/** Dispatched on the page's window when a replay or a resolved conflict changed what the device shows: screens read their data again. */
export const SYNCED_EVENT = 'outbox-synced';

/** Page → worker: drain the outbox now. */
export interface SyncRequest {
  type: 'SYNC';
}

/** Worker → every page it controls, after each drain it ran. */
export interface SyncedMessage {
  type: 'SYNCED';
  /** When the drain got the lock: a page that stored an entry before then knows the drain saw it. */
  startedAt: number;
  sent: number;
  stopped: StopReason | null;
  /** When an entity that backs off is due again (DrainResult.retryAt): the page tries then. */
  retryAt?: number;
  /** The token a 401 refused: the page that still holds it ends its session. */
  rejectedToken?: string;
}
