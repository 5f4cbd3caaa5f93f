import { z } from 'zod/mini';
import { Email, LanguageCodeSchema, PersonName } from '../auth';
import { messages } from '../messages';
import { RoleInfoSchema, type RoleInfo } from '../permissions';
import { defineResource } from '../resource';
import { AccountStatus } from './accounts';

// A website's team (spec §7 Team, §6 roles): its roles, each the cms/seo/team/settings flags and a
// level per CMS module, and its members, accounts of type teammember tied to the website and one of
// its roles. Both sit behind the team flag. A member is invited as every account is (ADR 011): the
// mail carries a PIN to choose a password with, then they sign in with password and PIN.

const required = messages.required.id;
const tooLong = messages.tooLong.id;

/** Spec §6 reads a role named "admin" as an administrator, so no website may hand that name out (the table refuses it too). */
const RoleName = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(100, tooLong), z.regex(/^(?!admin$)/i, messages.roleNameReserved.id));
const NO_FLAGS: RoleInfo['permissions'] = { cms: false, seo: false, team: false, settings: false };

export const teamRoles = defineResource({
  name: 'teamRoles',
  label: { one: /*i18n*/ { id: 'resource.teamRole', message: 'team role' }, other: /*i18n*/ { id: 'resource.teamRoles', message: 'team roles' } },
  scope: 'website',
  feature: 'team',
  paths: { list: '/api/team-roles/:websiteId', item: '/api/team-roles/:websiteId/role/:roleId', create: '/api/team-roles/:websiteId/role' },
  title: 'name',
  fields: {
    name: RoleName,
    permissions: z._default(RoleInfoSchema.shape.permissions, NO_FLAGS),
    cmsPermissions: z._default(RoleInfoSchema.shape.cmsPermissions, {}),
  },
  filters: {},
  search: ['name'],
  sort: ['name', 'createdAt', 'updatedAt'],
  unique: ['name'],
});

export const teamMembers = defineResource({
  name: 'teamMembers',
  label: { one: /*i18n*/ { id: 'resource.teamMember', message: 'team member' }, other: /*i18n*/ { id: 'resource.teamMembers', message: 'team members' } },
  scope: 'website',
  feature: 'team',
  paths: { list: '/api/team/members/:websiteId', item: '/api/team/members/:websiteId/:memberId' },
  title: 'email',
  fields: {
    email: Email,
    firstName: z._default(PersonName, ''),
    lastName: z._default(PersonName, ''),
    /** None: the member reaches the website and nothing in it (a deleted role leaves its members so). */
    teamRoleId: z._default(z.nullable(z.uuid()), null),
    status: z._default(AccountStatus, 'active'),
    /** '' asks for the installation's default language (the invitation is written in it). */
    language: z._default(z.union([LanguageCodeSchema, z.literal('')]), ''),
  },
  /** Whether they accepted: they chose a password and signed in with a mailed PIN. */
  computed: { verified: z.boolean() },
  filters: { status: AccountStatus, teamRoleId: z.uuid() },
  search: ['email', 'firstName', 'lastName'],
  sort: ['email', 'lastName', 'firstName', 'createdAt', 'updatedAt'],
  unique: ['email'],
  references: { teamRoleId: 'teamRoles' },
});
