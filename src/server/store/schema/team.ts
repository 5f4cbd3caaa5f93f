import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { RoleInfo } from '../../../contract/permissions';
import { entityColumns } from './columns';

/**
 * A website's team role: the cms/seo/team/settings flags and a level per CMS module.
 * The websites table and its foreign key arrive with the websites module.
 */
export const teamRoles = pgTable('team_roles', {
  ...entityColumns,
  websiteId: uuid('website_id').notNull(),
  name: text('name').notNull(),
  permissions: jsonb('permissions').$type<RoleInfo['permissions']>().notNull(),
  cmsPermissions: jsonb('cms_permissions').$type<RoleInfo['cmsPermissions']>().notNull(),
});
