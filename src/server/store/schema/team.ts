import { jsonb, pgTable, text, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { RoleInfo } from '../../../contract/permissions';
import { entityColumns } from './columns';
import { websites } from './websites';

/**
 * A website's team role: the cms/seo/team/settings flags and a level per CMS module.
 */
export const teamRoles = pgTable('team_roles', {
  ...entityColumns,
  websiteId: uuid('website_id')
    .notNull()
    .references((): AnyPgColumn => websites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  permissions: jsonb('permissions').$type<RoleInfo['permissions']>().notNull(),
  cmsPermissions: jsonb('cms_permissions').$type<RoleInfo['cmsPermissions']>().notNull(),
});
