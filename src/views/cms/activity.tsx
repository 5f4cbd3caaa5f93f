import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { call } from '../../api/action';
import { MODULES } from '../../contract/modules';
import { activity, allActivity, listActivityPeople, listAllActivityPeople, type Actor } from '../../contract/resources/activity';
import { websites } from '../../contract/resources/websites';
import type { Row } from '../../db/resource-store';
import { screenPages } from '../resource/screen-pages';
import { actorName, REVISION_ACTIONS_SAID } from '../resource/revision-changes';
import type { Choice, Column, Filter, ResourceScreen } from '../resource/screen';

// Issue 20, the activity log: who did what and when, on the shared list screen. A website's at
// /cms/{id}/activity (any of its people; the server shows each the changes of what they may
// list), the admins' across every website and the admin area at /activity. Never an id, a table
// or a field's key: a change is said with the words of its entry's screen (use-change-texts.ts).

const actions = REVISION_ACTIONS_SAID;

/** Where a change was made: each CMS module by its name, and the website's features. */
const modules: readonly Choice[] = [
  ...MODULES.map((module) => ({ value: module.key, label: module.name })),
  { value: 'team', label: msg`Team` },
  { value: 'seo', label: msg`SEO` },
  { value: 'settings', label: msg`Website settings` },
];

/** Who made it, and from which device. */
function who(row: Row, i18n: I18n): string {
  const device = row.actorKind === 'user' && typeof row.device === 'string' && row.device ? ` · ${row.device}` : '';
  return `${actorName(row, i18n)}${device}`;
}

const columns: readonly Column[] = [
  { key: 'createdAt', label: msg`When`, format: 'datetime', sortable: true },
  { key: 'actorName', label: msg`Who`, text: who },
  { key: 'action', label: msg`What`, format: 'choice', choices: actions },
  { key: 'module', label: msg`Module`, format: 'choice', choices: modules },
  { key: 'title', label: msg`Record` },
  { key: 'changes', label: msg`Changes`, format: 'changes', entry: 'entry' },
];

const people = (answer: Promise<{ data: readonly Actor[] }>) => answer.then(({ data }) => data.map((person) => ({ value: person._id, label: person.name })));

const filters = (load: Extract<Filter, { load: unknown }>['load']): readonly Filter[] => [
  { key: 'actorId', label: msg`Person`, load },
  { key: 'module', label: msg`Module`, choices: modules },
  { key: 'action', label: msg`What`, choices: actions },
  { key: 'from', label: msg`From`, day: 'start' },
  { key: 'to', label: msg`To`, day: 'end' },
];

/** A website's activity. */
export const activityScreen = {
  resource: activity,
  columns,
  fields: [],
  filters: filters(({ websiteId = '' }) => people(call(listActivityPeople, { params: { websiteId } }))),
} satisfies ResourceScreen;

/** Every change, with the website it was made in (none: the admin area). */
export const allActivityScreen = {
  resource: allActivity,
  columns: [...columns.slice(0, 4), { key: 'websiteId', label: msg`Website`, format: 'lookup', source: { resource: websites } }, ...columns.slice(4)],
  fields: [],
  filters: [
    ...filters(() => people(call(listAllActivityPeople, { query: {} }))),
    { key: 'websiteId', label: msg`Website`, source: { resource: websites } },
  ],
} satisfies ResourceScreen;

const website = screenPages(activityScreen);
const admin = screenPages(allActivityScreen);

/** /cms/{id}/activity. */
export const ActivityPage = website.List;
/** /activity. */
export const AllActivityPage = admin.List;
