import { z } from 'zod/mini';
import { Email, LanguageCodeSchema, PersonName, Username } from '../auth';
import { defineResource } from '../resource';

// The accounts an admin keeps (spec §7 Users, Admins): owners and partners under /api/users,
// administrators under /api/admins, both rows of one table. Passwords are not fields: a new
// account is mailed an invitation to set its own, and an admin can mail a reset PIN, so no
// password an admin chose ever travels by mail (ADR 011).

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export const AccountStatus = z.enum(ACCOUNT_STATUSES);
export type AccountStatus = z.infer<typeof AccountStatus>;

/** '' asks the server to choose: a username from the email, the installation's default language. */
const chosenByServer = <T extends z.core.SomeType>(schema: T) => z._default(z.union([schema, z.literal('')]), '');

const accountFields = {
  email: Email,
  username: chosenByServer(Username),
  firstName: z._default(PersonName, ''),
  lastName: z._default(PersonName, ''),
  status: z._default(AccountStatus, 'active'),
  language: chosenByServer(LanguageCodeSchema),
};
/** Whether the account has proven its address (it signed in with a mailed PIN); only the server sets it. */
const accountComputed = { verified: z.boolean() };
const accountQuery = {
  filters: { status: AccountStatus },
  search: ['email', 'username', 'firstName', 'lastName'],
  sort: ['email', 'lastName', 'firstName', 'createdAt', 'updatedAt'],
  unique: ['email', 'username'],
  title: 'email',
} as const;

export const OWNER_TYPES = ['user', 'partner'] as const;
export const OwnerType = z.enum(OWNER_TYPES);

/** Website owners and partners (spec §6 "Owner: type user or partner"). */
export const users = defineResource({
  name: 'users',
  label: { one: /*i18n*/ { id: 'resource.user', message: 'user' }, other: /*i18n*/ { id: 'resource.users', message: 'users' } },
  scope: 'global',
  access: { read: 'admin', write: 'admin' },
  paths: { list: '/api/users', item: '/api/users/:id', stats: '/api/users/stats' },
  fields: { ...accountFields, type: z._default(OwnerType, 'user') },
  computed: accountComputed,
  ...accountQuery,
  filters: { ...accountQuery.filters, type: OwnerType },
});

/** Administrators; `type` moves one to the owners (a demotion the server refuses for oneself and the last admin). */
export const admins = defineResource({
  name: 'admins',
  label: { one: /*i18n*/ { id: 'resource.admin', message: 'admin' }, other: /*i18n*/ { id: 'resource.admins', message: 'admins' } },
  scope: 'global',
  access: { read: 'admin', write: 'admin' },
  paths: { list: '/api/admins', item: '/api/admins/:id', stats: '/api/admins/stats' },
  fields: { ...accountFields, type: z._default(z.enum(['admin', ...OWNER_TYPES]), 'admin') },
  computed: accountComputed,
  ...accountQuery,
});

/** `GET /api/users/dropdown`: accounts matching what is typed, for pickers over thousands of them. */
export const UserOptionSchema = z.object({ _id: z.uuid(), email: z.string(), firstName: z.string(), lastName: z.string(), type: z.string() });
export type UserOption = z.infer<typeof UserOptionSchema>;

/** `GET /api/websites/{id}/users`: who works on a website, and as what. */
export const WebsiteUserSchema = z.object({
  _id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: z.string(),
  /** owner, partner, or the team role's name (null: a member without a role). */
  relation: z.enum(['owner', 'partner', 'team']),
  role: z.nullable(z.string()),
});
