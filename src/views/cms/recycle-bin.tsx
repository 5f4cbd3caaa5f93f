import { i18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { SessionUser } from '../../api/session';
import { allows } from '../../contract/permissions';
import { isResource, type Resource } from '../../contract/resource';
import { adminRecycleBin, recycleBin, restoreFromAdminRecycleBin, restoreFromRecycleBin } from '../../contract/resources/recycle-bin';
import { sendOrQueue } from '../../db/queued-action';
import type { Row } from '../../db/resource-store';
import { toast } from '../../machines/feedback';
import { CmsBackLink } from './cms-back-link';
import { screenPages } from '../resource/screen-pages';
import type { ResourceScreen, RowAction } from '../resource/screen';

// The recycle bin (issue 20, ADR 025): what was deleted, for 30 days, with Restore and Delete
// permanently on each row. A row names what it was by its entry's noun, which the client knows
// from the contract; a person never sees an id, a table or a field's name.

/** Every registry entry, by name: a bin entry's `resource` names one. */
const ENTRIES: ReadonlyMap<string, Resource> = new Map(
  Object.values(import.meta.glob<Readonly<Record<string, unknown>>>(['../../contract/resources/*.ts', '!../../contract/resources/*.test.ts'], { eager: true }))
    .flatMap((file) => Object.values(file).filter(isResource))
    .map((entry) => [entry.name, entry]),
);

const entryOf = (row: Row) => ENTRIES.get(String(row.resource));
/** What a row was, as a noun ("food menu"), with a capital. */
const nounOf = (row: Row) => {
  const entry = entryOf(row);
  const noun = entry ? i18n._(entry.label.one) : i18n._(msg`record`);
  return noun.charAt(0).toUpperCase() + noun.slice(1);
};
const may = (operation: 'create' | 'delete') => (row: Row, user: SessionUser | null) => {
  const entry = entryOf(row);
  return entry !== undefined && allows(entry.access[operation], user);
};

/** Says how a restore went: done (the server's words), or kept on the device until it is online. */
async function restored(sent: Awaited<ReturnType<typeof sendOrQueue>>) {
  if (sent.queued) toast.info(i18n._(msg`Saved on this device; it is restored when you are online.`));
  else toast.success(sent.message ?? i18n._(msg`Restored`));
}

/** How many other records went with it, in words. */
const withIt = (count: number) => plural(count, { 0: 'nothing else', one: '# more record', other: '# more records' });

const restoreLabel = (name: string) => msg`Restore ${name}`;

function binScreen(resource: typeof recycleBin, restore: RowAction['run']): ResourceScreen {
  return {
    resource,
    columns: [
      { key: 'resource', label: msg`What`, text: nounOf },
      { key: 'title', label: msg`Title`, sortable: true },
      { key: 'createdAt', label: msg`Deleted`, format: 'date', sortable: true },
      { key: 'actorName', label: msg`By` },
      { key: 'children', label: msg`Deleted with it`, text: (row) => withIt(Number(row.children ?? 0)) },
    ],
    fields: [],
    rowActions: [{ key: 'restore', label: restoreLabel, icon: 'restore', allowed: may('create'), run: restore }],
    deletion: { label: (name: string) => msg`Delete ${name} permanently`, allowed: may('delete') },
  };
}

export const recycleBinScreen = binScreen(recycleBin, async (row, params) => {
  await restored(await sendOrQueue(restoreFromRecycleBin, { params: { websiteId: params.websiteId ?? '', binId: row.id } }, String(row.title ?? '')));
});

export const adminRecycleBinScreen = binScreen(adminRecycleBin as unknown as typeof recycleBin, async (row) => {
  await restored(await sendOrQueue(restoreFromAdminRecycleBin, { params: { binId: row.id } }, String(row.title ?? '')));
});

/** /cms/{websiteId}/recycle-bin: what was deleted of the website and what the person's role lists. */
export const RecycleBinPage = screenPages(recycleBinScreen, <CmsBackLink />).List;

/** /recycle-bin: what was deleted in the admin area (catalogs, services, websites, partners). */
export const AdminRecycleBinPage = screenPages(adminRecycleBinScreen).List;
