import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, jsonb, pgEnum, pgTable, text, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { RoleInfo } from '../../../contract/permissions';
import { entityColumns } from './columns';

// Users, websites and team roles refer to one another (owner, team member's website, member's
// role), so they live in one file: split, their imports would run in a circle.

export const userType = pgEnum('user_type', ['admin', 'user', 'partner', 'teammember']);
export const userStatus = pgEnum('user_status', ['active', 'suspended']);

export const users = pgTable(
  'users',
  {
    ...entityColumns,
    type: userType('type').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    /** argon2id, never sent anywhere. */
    passwordHash: text('password_hash').notNull(),
    verified: boolean('verified').notNull().default(false),
    status: userStatus('status').notNull().default('active'),
    language: text('language').notNull().default('en'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** A team member's one website and role; null for everyone else. */
    websiteId: uuid('website_id').references((): AnyPgColumn => websites.id, { onDelete: 'cascade' }),
    teamRoleId: uuid('team_role_id'),
  },
  (t) => [
    // A member's role is one of their website's roles; deleting it leaves the member without one
    // (the migration narrows SET NULL to team_role_id: the member keeps the website).
    foreignKey({ name: 'users_team_role_fk', columns: [t.websiteId, t.teamRoleId], foreignColumns: [teamRoles.websiteId, teamRoles.id] }).onDelete('set null'),
    // Case-insensitive uniqueness: "Anna@x.de" and "anna@x.de" are one account.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_website_idx').on(t.websiteId),
  ],
);

/**
 * A managed website (docs/design.md §5): its owner and optional partner may do everything with it;
 * team members reach it through their role. The websites module adds the catalog references.
 */
export const websites = pgTable(
  'websites',
  {
    ...entityColumns,
    name: text('name').notNull(),
    domain: text('domain').notNull().default(''),
    ownerId: uuid('owner_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'restrict' }),
    partnerId: uuid('partner_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('websites_owner_idx').on(t.ownerId), index('websites_partner_idx').on(t.partnerId)],
);

/**
 * A website's team role: the cms/seo/team/settings flags and a level per CMS module.
 */
export const teamRoles = pgTable(
  'team_roles',
  {
    ...entityColumns,
    websiteId: uuid('website_id')
      .notNull()
      .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: jsonb('permissions').$type<RoleInfo['permissions']>().notNull(),
    cmsPermissions: jsonb('cms_permissions').$type<RoleInfo['cmsPermissions']>().notNull(),
  },
  (t) => [
    // What a member's role may point at: a role of the member's own website (users_team_role_fk).
    unique('team_roles_website_key').on(t.websiteId, t.id),
    // Spec §6 reads role "admin" as admin: no website may hand that name to its team.
    check('team_roles_name_not_admin', sql`lower(btrim(${t.name})) <> 'admin'`),
  ],
);
