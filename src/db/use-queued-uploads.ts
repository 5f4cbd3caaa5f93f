import { useLiveQuery } from 'dexie-react-hooks';
import { db, type OutboxEntry, type OutboxFile } from './database';

const NONE: OutboxEntry[] = [];

/** The uploads of a resource under one boundKey not on the server yet (pending or refused), oldest first, as they change. */
export function useQueuedUploads(resource: string, boundKey = ''): OutboxEntry[] {
  return (
    useLiveQuery(
      () =>
        db.outbox
          .where('resource')
          .equals(resource)
          .filter((entry) => entry.kind === 'upload' && (entry.scope ?? '') === boundKey)
          .sortBy('seq'),
      [resource, boundKey],
    ) ?? NONE
  );
}

/** The file an upload entry sends; undefined while it is read (or once it is gone). */
export function useEntryFile(seq: number | undefined): OutboxFile | undefined {
  return useLiveQuery(() => (seq === undefined ? undefined : db.files.where('seq').equals(seq).first()), [seq]);
}

/**
 * The upload kept under one entity (a photo of the media library, by the id its record will have),
 * pending or refused: null when there is none, undefined while it is read.
 */
export function useQueuedUpload(resource: string, entityId: string | null): OutboxEntry | null | undefined {
  return useLiveQuery(
    async () =>
      entityId === null
        ? null
        : ((await db.outbox
            .where('[resource+entityId]')
            .equals([resource, entityId])
            .filter((entry) => entry.kind === 'upload')
            .first()) ?? null),
    [resource, entityId],
  );
}

/**
 * The pictures of a resource under one boundKey waiting to be uploaded (the media library's
 * photos taken offline) that a record may already name: images sent with the id they are kept
 * under (upload-or-queue.ts), oldest first.
 */
export function useQueuedPictures(resource: string, boundKey = ''): OutboxEntry[] {
  const queued = useQueuedUploads(resource, boundKey);
  const named = queued.filter((entry) => entry.body?._id === entry.entityId);
  const images = useLiveQuery(
    async () => {
      const files = await db.files.where('seq').anyOf(named.map((entry) => entry.seq!)).toArray();
      return new Set(files.filter((file) => file.blob.type.startsWith('image/')).map((file) => file.seq));
    },
    [named.map((entry) => entry.seq).join()],
  );
  return images ? named.filter((entry) => images.has(entry.seq!)) : NONE;
}
