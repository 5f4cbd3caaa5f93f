import { z } from 'zod/mini';
import { defineAction } from '../action';
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

/** Mails the account a PIN to choose a new password with (ADR 011): the admin never sees a password. */
export const resetUserPassword = defineAction({
  name: 'resetUserPassword',
  method: 'POST',
  path: '/api/users/:id/reset-password',
  policy: users.access.update,
  summary: 'Mails an owner or partner a PIN to choose a new password with; their current password stays until then.',
  params: z.object({ id: z.string() }),
  answer: z.object({ email: z.string() }),
});

export const listUserOptions = defineAction({
  name: 'listUserOptions',
  method: 'GET',
  path: '/api/users/dropdown',
  policy: users.access.list,
  summary: 'Owners and partners whose address or name contains the search, by address, for pickers.',
  query: z.object({
    search: z.optional(z.string().check(z.maxLength(200))),
    type: z.optional(OwnerType),
    limit: z._default(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(100))), 20),
  }),
  answer: z.array(UserOptionSchema),
});

export const listWebsiteUsers = defineAction({
  name: 'listWebsiteUsers',
  method: 'GET',
  path: '/api/websites/:id/users',
  policy: { website: 'team' },
  summary: 'Who works on a website: its owner, its partner and its team.',
  params: z.object({ id: z.string() }),
  answer: z.array(WebsiteUserSchema),
});
