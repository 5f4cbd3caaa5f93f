import type { FastifyBaseLogger } from 'fastify';
import { removeFiles } from '../files/storage';
import type { DeletedRecord } from '../store/maintenance';
import { afterCommit } from '../store/request-transaction';
import type { RegisteredEntries, ResourceContext } from './context';

/*
 * A record's files (its image, a media record's file and thumbnail) live as long as the record can
 * come back (ADR 035): a delete the recycle bin keeps leaves them, so a restored picture still shows;
 * they go once nothing can bring it back: a delete the bin does not keep, its entry purged or
 * expired. A replaced image goes at once (crud/upload.ts): restoring an older version of a record
 * does not bring back its files.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Removes the files of records deleted for good by the recycle bin's expiry (store/maintenance.ts). */
    forgetRecords(records: readonly DeletedRecord[]): void;
  }
}

type Files = NonNullable<ResourceContext['files']>;

/** The keys of the files a row holds; `stored`: a revision's values, by the database's names of the columns. */
const keysOf = (files: Files, row: Readonly<Record<string, unknown>>, stored: boolean) =>
  files.columns.map((column) => row[stored ? column.name : column.key]).filter((key): key is string => typeof key === 'string' && key !== '');

function removeOnceCommitted(files: Files, keys: string[], log: FastifyBaseLogger): void {
  // A rolled back delete keeps its record, so its files stay; one that failed to go is only space.
  if (keys.length > 0) afterCommit(() => void removeFiles(files.storage, keys, log));
}

/** The files of a row its delete removed for good (the recycle bin did not keep it), once that is committed. */
export function dropFilesOf(context: ResourceContext, row: Readonly<Record<string, unknown>>, log: FastifyBaseLogger): void {
  if (context.files) removeOnceCommitted(context.files, keysOf(context.files, row, false), log);
}

/** The files of records whose delete revisions are gone (their bin entry purged or expired), once that is committed. */
export function dropFilesOfRecords(entries: RegisteredEntries, records: readonly DeletedRecord[], log: FastifyBaseLogger): void {
  for (const { tableName, values } of records) {
    const entry = entries.get(tableName)?.find((context) => context.owns(values));
    if (entry?.files) removeOnceCommitted(entry.files, keysOf(entry.files, values, true), log);
  }
}
