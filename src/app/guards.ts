import { isAdmin, isOwner } from '../contract/permissions';
import { homePath, type SessionUser } from '../api/session';

/**
 * Who may open a route (spec §2). `signedIn` also covers /websites/{id}, which has only the global
 * guard: for a non-public path that guard asks for exactly a verified session.
 */
export type Access = 'public' | 'pending' | 'admin' | 'owner' | 'signedIn' | 'unknown';

export interface GuardSession {
  user: SessionUser | null;
  /** Token, user and verified all present (spec §2). */
  authenticated: boolean;
  /** A pendingUser is stored: the PIN step may be shown. */
  pending: boolean;
}

function target(access: Access, { user, authenticated, pending }: GuardSession): string | null {
  if (access === 'public' || access === 'pending') {
    if (authenticated) return homePath(user);
    return access === 'pending' && !pending ? '/login' : null;
  }
  if (!authenticated || !user) return '/login';
  // The spec sends non-admins to /user/websites and non-owners to /; both bounce a team member
  // (or an admin) on to another guard, so every "others" target is the user's own home instead.
  if (access === 'admin') return isAdmin(user) ? null : homePath(user);
  if (access === 'owner') return isOwner(user) ? null : homePath(user);
  return access === 'unknown' ? homePath(user) : null;
}

/**
 * The one guard, global and per-route rules together: where to send the visitor of `path`,
 * or null to show the page.
 */
export function guard(access: Access, path: string, session: GuardSession): string | null {
  const to = target(access, session);
  // A team member without a website has /user/websites as home but is no owner: showing the page
  // beats redirecting to itself forever.
  return to === path ? null : to;
}
