import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useParams } from 'wouter';
import { CMS, screenRoutes } from '../cms-modules';
import { SectionTabs } from '../../components/section-tabs';
import { MODULES } from '../../contract/modules';
import type { RoleInfo } from '../../contract/permissions';
import { teamMembers, teamRoles } from '../../contract/resources/team';
import type { Row } from '../../db/resource-store';
import { accountStatusChoices, personName } from '../admin/accounts';
import { interfaceLanguageChoices } from '../admin/choices';
import { BackLink } from '../resource/back-link';
import { screenPages } from '../resource/screen-pages';
import type { Choice, ResourceScreen } from '../resource/screen';

// Spec §2 /cms/{id}/team, /team/add, /team/edit/{memberId}, /team/roles, /team/roles/add,
// /team/roles/edit/{roleId}; spec §7 Team. Members and roles are two tabs of one section, behind
// the team flag. A member is invited by mail and accepts by choosing a password (the list says
// whether they did); a role is the four flags and a level per CMS module (spec §6).

const roleSource = { resource: teamRoles };

export const flagChoices: readonly Choice[] = [
  { value: 'cms', label: msg`Content (CMS)` },
  { value: 'seo', label: msg`SEO` },
  { value: 'team', label: msg`Team and roles` },
  { value: 'settings', label: msg`Website settings` },
];
export const levelChoices: readonly Choice[] = [
  { value: 'none', label: msg`No access` },
  { value: 'view', label: msg`View` },
  { value: 'edit', label: msg`Edit` },
  { value: 'manage', label: msg`Manage (also add and delete)` },
];
const moduleKeys: readonly Choice[] = MODULES.map((module) => ({ value: module.key, label: module.name }));
const languageChoices: readonly Choice[] = [{ value: '', label: msg`The default language` }, ...interfaceLanguageChoices];

const labelOf = (choices: readonly Choice[], value: string) => i18n._(choices.find((choice) => choice.value === value)?.label ?? msg`Unknown`);

/** "Content (CMS), SEO": the flags a role sets. */
function flagsText(row: Row): string {
  const flags = (row.permissions ?? {}) as Partial<RoleInfo['permissions']>;
  return flagChoices
    .filter((choice) => flags[choice.value as keyof RoleInfo['permissions']])
    .map((choice) => i18n._(choice.label))
    .join(', ');
}

/** "Pages: Edit, Media library: View": the modules a role opens, with their level. */
function levelsText(row: Row): string {
  const levels = (row.cmsPermissions ?? {}) as RoleInfo['cmsPermissions'];
  return MODULES.filter((module) => (levels[module.key] ?? 'none') !== 'none')
    .map((module) => `${i18n._(module.name)}: ${labelOf(levelChoices, levels[module.key]!)}`)
    .join(', ');
}

export const membersScreen = {
  resource: teamMembers,
  columns: [
    { key: 'email', label: msg`Email`, sortable: true },
    { key: 'lastName', label: msg`Name`, sortable: true, text: personName },
    { key: 'teamRoleId', label: msg`Role`, format: 'lookup', source: roleSource },
    { key: 'status', label: msg`Status`, format: 'choice', choices: accountStatusChoices },
    { key: 'verified', label: msg`Invitation`, text: (row: Row) => i18n._(row.verified ? msg`Accepted` : msg`Not accepted yet`) },
  ],
  fields: [
    { name: 'email', label: msg`Email`, kind: 'email' },
    { name: 'firstName', label: msg`First name`, kind: 'text' },
    { name: 'lastName', label: msg`Last name`, kind: 'text' },
    { name: 'teamRoleId', label: msg`Role`, kind: 'select', source: roleSource, optional: true },
    { name: 'status', label: msg`Status`, kind: 'choice', choices: accountStatusChoices },
    { name: 'language', label: msg`Language of mails`, kind: 'choice', choices: languageChoices },
  ],
  filters: [
    { key: 'teamRoleId', label: msg`Role`, source: roleSource },
    { key: 'status', label: msg`Status`, choices: accountStatusChoices },
  ],
  routes: screenRoutes(CMS.team, { list: 'list', create: 'add', edit: 'edit' }),
} satisfies ResourceScreen;

export const rolesScreen = {
  resource: teamRoles,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'permissions', label: msg`Opens`, text: flagsText },
    { key: 'cmsPermissions', label: msg`CMS modules`, text: levelsText },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'permissions', label: msg`Opens`, kind: 'flags', choices: flagChoices },
    { name: 'cmsPermissions', label: msg`Level per CMS module (with Content opened)`, kind: 'choiceMap', keys: moduleKeys, choices: levelChoices },
  ],
  routes: screenRoutes(CMS.team, { list: 'roles', create: 'addRole', edit: 'editRole' }),
} satisfies ResourceScreen;

/** Back to the website, and the section's two tabs: its members and their roles. */
function TeamSection() {
  const { t } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  return (
    <>
      <BackLink href={`/websites/${websiteId}`}>{t`Website dashboard`}</BackLink>
      <SectionTabs
        label={t`Team section`}
        tabs={[
          { href: `/cms/${websiteId}/team`, label: t`Members` },
          { href: `/cms/${websiteId}/team/roles`, label: t`Roles` },
        ]}
      />
    </>
  );
}

const section = <TeamSection />;
const memberPages = screenPages(membersScreen, section);
const rolePages = screenPages(rolesScreen, section);

export const TeamPage = memberPages.List;
export const TeamMemberNewPage = memberPages.New;
export const TeamMemberEditPage = memberPages.Edit;
export const TeamRolesPage = rolePages.List;
export const TeamRoleNewPage = rolePages.New;
export const TeamRoleEditPage = rolePages.Edit;
