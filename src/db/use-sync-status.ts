import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useSyncExternalStore } from 'react';
import { db, readLastSync, type OutboxEntry } from './database';

export interface SyncStatus {
  online: boolean;
  /** Waiting to be sent (or being sent). */
  pending: number;
  conflicts: number;
  failed: number;
  /** Every entry, oldest first. */
  entries: OutboxEntry[];
  /** When the outbox last delivered a change (ms since epoch), null if never on this device. */
  lastSync: number | null;
  /** False until the outbox was first read (entries is empty until then). */
  loaded: boolean;
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
}

const NONE: OutboxEntry[] = [];

/** The outbox as it changes, in this tab, in others and in the service worker (Dexie's live queries see them all). */
export function useSyncStatus(): SyncStatus {
  const online = useOnline();
  const read = useLiveQuery(() => db.outbox.orderBy('seq').toArray(), []);
  const lastSync = useLiveQuery(readLastSync, [], null);
  return useMemo(() => {
    const entries = read ?? NONE;
    const count = (status: OutboxEntry['status']) => entries.filter((entry) => entry.status === status).length;
    return { online, pending: count('pending'), conflicts: count('conflict'), failed: count('failed'), entries, lastSync, loaded: read !== undefined };
  }, [online, read, lastSync]);
}
