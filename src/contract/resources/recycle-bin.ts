import { z } from 'zod/mini';
import { defineAction } from '../action';
import { defineResource } from '../resource';

// The recycle bin (issue 20, ADR 025): what a person deleted, with what went with it (a menu's
// items, a food menu's categories and dishes, a slider's slides), kept RECYCLE_BIN_DAYS and then
// purged by the server's maintenance. Two entries over the same table: a website's, which any of
// its people reach and which shows each of them only what they may list themselves (the server's
// `narrow` hook, routes/recycle-bin.ts), and the admin area's (catalogs, websites, partners).
// Deleting an entry purges it at once; that needs the delete policy of what it was.

/** How long a deleted record can be brought back. */
export const RECYCLE_BIN_DAYS = 30;

export const recycleBinMessages = {
  restored: /*i18n*/ { id: 'recycleBin.restored', message: '{title} restored' },
  restoreFailed: /*i18n*/ { id: 'recycleBin.restoreFailed', message: 'Failed to restore' },
  /** A record it belongs to (or refers to) is gone since: `{item}` is that record's noun. */
  parentGone: /*i18n*/ { id: 'recycleBin.parentGone', message: 'Its {item} was deleted: restore that first.' },
  /** A unique value (a slug, a name) is another record's since. */
  taken: /*i18n*/ { id: 'recycleBin.taken', message: 'This {item} cannot be restored: another one now has the same name or address. Rename that one first.' },
  /** What a record of no entry is called. */
  record: /*i18n*/ { id: 'recycleBin.record', message: 'record' },
  restoreLabel: /*i18n*/ { id: 'recycleBin.restore', message: 'Restore from the recycle bin' },
};

const shape = {
  label: { one: /*i18n*/ { id: 'resource.recycleBinEntry', message: 'recycle bin entry' }, other: /*i18n*/ { id: 'resource.recycleBinEntries', message: 'recycle bin entries' } },
  operations: ['list', 'get', 'delete'] as const,
  title: 'title' as const,
  fields: {
    /** The entry the record was of (`gastroMenus`), by its name: the client shows its noun. */
    resource: z.string(),
    /** The record's title when it was deleted. */
    title: z.string(),
    /** Who deleted it. */
    actorName: z.string(),
    /** How many other records went with it. */
    children: z.int(),
  },
  filters: { resource: z.string() },
  search: ['title', 'actorName'] as const,
  sort: ['createdAt', 'title'] as const,
  defaultOrder: 'desc' as const,
};

/** A website's recycle bin: any of its people read it, each sees what their role lists. */
export const recycleBin = defineResource({
  ...shape,
  name: 'recycleBin',
  scope: 'website',
  members: true,
  paths: { list: '/api/websites/:websiteId/recycle-bin', item: '/api/websites/:websiteId/recycle-bin/:binId' },
});

/** The admin area's recycle bin: records of no website (catalogs, services, websites, partners). */
export const adminRecycleBin = defineResource({
  ...shape,
  name: 'adminRecycleBin',
  scope: 'global',
  access: { read: 'admin', write: 'admin' },
  paths: { list: '/api/recycle-bin', item: '/api/recycle-bin/:binId' },
});

/** What a restore answers: the entry and record that came back, and how many records in all. */
export const RestoredSchema = z.object({ resource: z.string(), recordId: z.uuid(), restored: z.int() });

/** Brings a website's deleted record back, with what went with it; needs the create policy of what it was. */
export const restoreFromRecycleBin = defineAction({
  name: 'restoreFromRecycleBin',
  method: 'POST',
  path: '/api/websites/:websiteId/recycle-bin/:binId/restore',
  policy: recycleBin.access.delete,
  summary: 'Restores a deleted record of the website with the records deleted with it, keeping their ids and order.',
  params: z.object({ websiteId: z.string(), binId: z.string() }),
  answer: RestoredSchema,
  failed: recycleBinMessages.restoreFailed,
  queueable: { label: recycleBinMessages.restoreLabel },
});

/** Brings a deleted record of the admin area back. */
export const restoreFromAdminRecycleBin = defineAction({
  name: 'restoreFromAdminRecycleBin',
  method: 'POST',
  path: '/api/recycle-bin/:binId/restore',
  policy: adminRecycleBin.access.delete,
  summary: 'Restores a deleted record of the admin area with the records deleted with it, keeping their ids.',
  params: z.object({ binId: z.string() }),
  answer: RestoredSchema,
  failed: recycleBinMessages.restoreFailed,
  queueable: { label: recycleBinMessages.restoreLabel },
});
