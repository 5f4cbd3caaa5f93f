import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgEnum, pgTable, text, unique, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CmsModule } from '../../../contract/permissions';
import { categories, hosting, subcategories, types } from './catalogs';
import type { RoleInfo } from '../../../contract/permissions';
import { entityColumns } from './columns';

// Users, partners, websites and team roles refer to one another (owner, team member's website,
// member's role, a website's partner), so they live in one file: split, their imports would run in
// a circle.

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
    // Pickers search thousands of accounts as one types.
    index('users_email_trgm').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_names_trgm').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_type_idx').on(t.type, t.createdAt),
  ],
);

export const partnerType = pgEnum('partner_type', ['standard', 'agency', 'reseller']);
export const partnerStatus = pgEnum('partner_status', ['active', 'inactive']);

/** A partner record (spec §7 Partners): the business an account works as; its type prices services. */
export const partners = pgTable(
  'partners',
  {
    ...entityColumns,
    name: text('name').notNull(),
    type: partnerType('type').notNull().default('standard'),
    status: partnerStatus('status').notNull().default('active'),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    website: text('website').notNull().default(''),
    address: text('address').notNull().default(''),
    // Restrict: an account with partner records is not deleted from under them.
    ownerId: uuid('owner_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'restrict' }),
  },
  (t) => [index('partners_owner_idx').on(t.ownerId), index('partners_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`)],
);

export const websiteStatus = pgEnum('website_status', ['pending', 'active', 'maintenance', 'inactive']);

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
    description: text('description').notNull().default(''),
    /** Where the website shows a draft (content/preview.ts); empty: no preview. */
    previewAddress: text('preview_address').notNull().default(''),
    ownerId: uuid('owner_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'restrict' }),
    /** A partner record; its owner reaches the website as the owner does (policy.ts). */
    partnerId: uuid('partner_id').references((): AnyPgColumn => partners.id, { onDelete: 'set null' }),
    status: websiteStatus('status').notNull().default('pending'),
    // Restrict: a catalog entry in use is not deleted from under its websites.
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'restrict' }),
    subcategoryId: uuid('subcategory_id').references(() => subcategories.id, { onDelete: 'restrict' }),
    typeId: uuid('type_id').references(() => types.id, { onDelete: 'restrict' }),
    hostingId: uuid('hosting_id').references(() => hosting.id, { onDelete: 'restrict' }),
    /** Lists of catalog ids: checked on every write (websites.ts), not by a foreign key. */
    technologyIds: uuid('technology_ids').array().notNull().default(sql`'{}'`),
    languageIds: uuid('language_ids').array().notNull().default(sql`'{}'`),
    items: text('items').array().notNull().default(sql`'{}'`),
    price: integer('price').notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    modules: text('modules').array().$type<CmsModule[]>().notNull().default(sql`'{}'`),
    /** The storage key of its preview image (files/storage.ts); the answer shows its URL. */
    previewKey: text('preview_key'),
  },
  (t) => [
    index('websites_owner_idx').on(t.ownerId),
    index('websites_partner_idx').on(t.partnerId),
    index('websites_status_idx').on(t.status),
    index('websites_category_idx').on(t.categoryId),
    index('websites_subcategory_idx').on(t.subcategoryId),
    index('websites_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('websites_domain_trgm').using('gin', sql`${t.domain} gin_trgm_ops`),
  ],
);

/** A website's delivery API key (spec §7 API key): only its SHA-256 and its first characters are kept. */
export const apiKeys = pgTable('api_keys', {
  ...entityColumns,
  websiteId: uuid('website_id')
    .notNull()
    .unique('api_keys_website_key')
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull().unique('api_keys_hash_key'),
  prefix: text('prefix').notNull(),
  isActive: boolean('is_active').notNull().default(true),
});

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
    // One name per role in a website, whatever its case: a picker shows roles by name.
    uniqueIndex('team_roles_website_name_key').on(t.websiteId, sql`lower(${t.name})`),
    // Spec §6 reads role "admin" as admin: no website may hand that name to its team.
    check('team_roles_name_not_admin', sql`lower(btrim(${t.name})) <> 'admin'`),
  ],
);
