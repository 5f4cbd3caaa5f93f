import { useLiveQuery } from 'dexie-react-hooks';
import { db, type OutboxEntry, type OutboxFile } from './database';

const NONE: OutboxEntry[] = [];

/** The uploads of a resource in a scope not on the server yet (pending or refused), oldest first, as they change. */
export function useQueuedUploads(resource: string, scope = ''): OutboxEntry[] {
  return (
    useLiveQuery(
      () =>
        db.outbox
          .where('resource')
          .equals(resource)
          .filter((entry) => entry.kind === 'upload' && (entry.scope ?? '') === scope)
          .sortBy('seq'),
      [resource, scope],
    ) ?? NONE
  );
}

/** The file an upload entry sends; undefined while it is read (or once it is gone). */
export function useEntryFile(seq: number | undefined): OutboxFile | undefined {
  return useLiveQuery(() => (seq === undefined ? undefined : db.files.where('seq').equals(seq).first()), [seq]);
}
