import { sql } from 'drizzle-orm';
import { boolean, index, pgEnum, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { teamRoles } from './team';
import { entityColumns } from './columns';
import { websites } from './websites';

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
    teamRoleId: uuid('team_role_id').references(() => teamRoles.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Case-insensitive uniqueness: "Anna@x.de" and "anna@x.de" are one account.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_website_idx').on(t.websiteId),
  ],
);
