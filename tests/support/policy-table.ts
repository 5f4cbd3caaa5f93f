import { levelAtLeast, type Policy, type RoleInfo } from '../../src/contract/permissions';
import type { Principal } from './principals';
import { routeName, type AppRoute } from './routes';
import type { Target } from './world';

/*
 * The authorization table (docs/design.md §5, spec §6, ADR 009): what a principal should hear from
 * a route, from the route's declared policy and what the principal is, never from the server's own
 * permission code. A policy it cannot read throws, so a route of a new kind fails the suites.
 */

export type Outcome = 'allowed' | 401 | 403 | 404;
export type WebsitePolicy = Extract<Policy, object>;

/** Whether a role lets its member past a website policy (spec §6), as the spec says it, not as policy.ts does. */
function roleAllows(policy: WebsitePolicy, role: RoleInfo): boolean {
  if ('level' in policy) return role.permissions.cms && levelAtLeast(role.cmsPermissions[policy.website] ?? 'none', policy.level);
  if (policy.website === 'member') return true;
  return role.permissions[policy.website];
}

/** Whether a principal has anything to do with the website a target names. */
function reaches(who: Principal, target: Target): boolean {
  if (who.kind === 'member' || who.kind === 'key') return who.website === target.websiteId;
  return target.websiteOwners?.includes(who.userId!) ?? false;
}

/** The table: what `who` should hear from `route` on `target`. */
export function expected(route: AppRoute, who: Principal, target: Target): Outcome {
  const { policy } = route;
  if (policy === 'public') return 'allowed';
  if (policy === 'apiKey') {
    if (who.kind !== 'key') return 401;
    // A list shows the key's own website; a row of another website is unknown to it.
    return target.rows.size > 0 && target.websiteId !== who.website ? 404 : 'allowed';
  }
  if (who.kind === 'anonymous' || who.kind === 'key') return 401;
  const own = !target.owners || target.owners.includes(who.userId!);
  if (policy === 'authenticated') return own ? 'allowed' : 404;
  if (policy === 'admin') return who.kind === 'admin' ? 'allowed' : 403;
  if (policy === 'owner') return who.kind === 'admin' ? 'allowed' : who.kind === 'member' ? 403 : own ? 'allowed' : 404;
  if (typeof policy !== 'object' || !('website' in policy)) throw new Error(`${routeName(route)}: no expectation for the policy ${JSON.stringify(policy)}`);
  if (who.kind === 'admin') return 'allowed';
  if (!reaches(who, target)) return 404;
  if (who.kind === 'owner') return 'allowed';
  if (!roleAllows(policy, who.role!)) return 403;
  // A row of what their role does not list is one they cannot find.
  const seenWith = target.seenWith;
  return seenWith && typeof seenWith === 'object' && !roleAllows(seenWith, who.role!) ? 404 : 'allowed';
}

/** The roles that tell a policy's callers apart, besides nothing and everything. */
export function rolesFor(policy: Policy): string[] {
  const always = ['nothing', 'everything'];
  if (typeof policy !== 'object') return always;
  if ('level' in policy) return [...always, ...['none', 'view', 'edit', 'manage'].map((level) => `${policy.website} ${level}`), 'cms off', `all but ${policy.website}`, 'only cms'];
  if (policy.website === 'member') return always;
  return [...always, `only ${policy.website}`, `all but ${policy.website}`];
}
