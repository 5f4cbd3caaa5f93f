import { can, hasFeature, isAdmin, isOwner, type Policy, type Principal } from '../../contract/permissions';

/**
 * Whether the user passes a resource's policy, as far as the client can tell (DESIGN §5): buttons for
 * what the server would refuse are hidden. Ownership of a single record is the server's to check.
 */
export function allows(policy: Policy, user: Principal | null): boolean {
  if (policy === 'public') return true;
  if (!user) return false;
  if (policy === 'authenticated') return true;
  if (policy === 'admin') return isAdmin(user);
  if (policy === 'owner') return isAdmin(user) || isOwner(user);
  if ('level' in policy) return can(user, policy.website, policy.level);
  return hasFeature(user, policy.website);
}
