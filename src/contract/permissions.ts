import { z } from 'zod/mini';
import { MODULE_KEYS } from './modules';

/** Spec §6: none < view < edit < manage; manage also covers create and delete. */
export const LEVELS = ['none', 'view', 'edit', 'manage'] as const;
export const LevelSchema = z.enum(LEVELS);
export type Level = z.infer<typeof LevelSchema>;

/** The CMS modules a team role grants a level for (contract/modules.ts declares them). */
export const CMS_MODULES = MODULE_KEYS;
export const CmsModuleSchema = z.enum(CMS_MODULES);
export type CmsModule = z.infer<typeof CmsModuleSchema>;

/** The role flags: `cms` opens the CMS at all; the others are features of the website. */
export const FEATURES = ['seo', 'team', 'settings'] as const;
export type Feature = (typeof FEATURES)[number];

export const RoleInfoSchema = z.object({
  permissions: z.object({ cms: z.boolean(), seo: z.boolean(), team: z.boolean(), settings: z.boolean() }),
  cmsPermissions: z.partialRecord(CmsModuleSchema, LevelSchema),
});
export type RoleInfo = z.infer<typeof RoleInfoSchema>;

export const USER_TYPES = ['admin', 'user', 'partner', 'teammember'] as const;
export const UserTypeSchema = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserTypeSchema>;

/** What a permission check needs to know about a user. */
export interface Principal {
  type: UserType;
  role?: string | null;
  roleInfo?: RoleInfo | null;
}

export function levelAtLeast(have: Level, need: Level): boolean {
  return LEVELS.indexOf(have) >= LEVELS.indexOf(need);
}

/** Spec §6: admin means type or role admin. */
export function isAdmin(user: Principal): boolean {
  return user.type === 'admin' || user.role === 'admin';
}

/** Owners are users and partners (a partner is a subtype of owner). */
export function isOwner(user: Principal): boolean {
  return user.type === 'user' || user.type === 'partner';
}

/** A non-team-member always may; a team member needs the cms flag and the module at `need` or above. */
export function can(user: Principal, module: CmsModule, need: Level): boolean {
  if (user.type !== 'teammember') return true;
  const info = user.roleInfo;
  return Boolean(info?.permissions.cms) && levelAtLeast(info?.cmsPermissions[module] ?? 'none', need);
}

/** Feature checks (seo, team, settings) read the role's flags; cms is the flag for the CMS as a whole. */
export function hasFeature(user: Principal, feature: Feature | 'cms'): boolean {
  if (user.type !== 'teammember') return true;
  return Boolean(user.roleInfo?.permissions[feature]);
}

/**
 * Who may call a route (docs/design.md §5). Website policies read the website from the path (or from
 * the row a child id names); anyone outside it gets a 404, so ids do not leak.
 */
export type Policy =
  | 'public'
  /** A website's delivery API key in `X-API-Key` (the key names the website); never a signed-in person. */
  | 'apiKey'
  | 'authenticated'
  | 'admin'
  | 'owner'
  | { website: CmsModule; level: Level }
  | { website: Feature | 'cms' | 'member' };

/**
 * Whether a user passes a policy by their type and role (DESIGN §5): the server's check, and the
 * client's for hiding what the server would refuse. Which website or row a caller may reach is
 * the server's to add (a website policy also needs the caller to belong to that website).
 */
export function allows(policy: Policy, user: Principal | null): boolean {
  if (policy === 'public') return true;
  if (!user || policy === 'apiKey') return false;
  if (policy === 'authenticated') return true;
  if (policy === 'admin') return isAdmin(user);
  if (policy === 'owner') return isAdmin(user) || isOwner(user);
  if ('level' in policy) return can(user, policy.website, policy.level);
  // Anyone who reaches the website (the server checks that) is a member of it.
  if (policy.website === 'member') return true;
  return hasFeature(user, policy.website);
}
