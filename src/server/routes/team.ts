import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { CMS_MODULES, levelAtLeast, type RoleInfo } from '../../contract/permissions';
import { teamMembers, teamRoles as teamRolesEntry } from '../../contract/resources/team';
import { invitationHooks } from '../auth/invitations';
import type { Authenticated } from '../auth/sessions';
import type { ServerContext } from '../context';
import { composeHooks, registerResource, type ResourceHooks, type Tx } from '../crud';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { caller } from '../policy';
import { teamRoles, users } from '../store/schema';

/** A website's members are the team-member part of the accounts table. */
const memberRows = eq(users.type, 'teammember');

/** The caller, when they are a team member: only members are held to their own role (owners and admins are not). */
function memberCalling(request: FastifyRequest): Authenticated | null {
  const auth = caller(request);
  return auth.user.type === 'teammember' ? auth : null;
}

/**
 * Whether a role grants nothing beyond `holder`'s: every flag it sets the holder has, and every
 * module's level is at most the holder's.
 */
function withinRole(grant: RoleInfo, holder: RoleInfo | null): boolean {
  const flags = Object.entries(grant.permissions) as [keyof RoleInfo['permissions'], boolean][];
  if (flags.some(([flag, on]) => on && !holder?.permissions[flag])) return false;
  return CMS_MODULES.every((module) => levelAtLeast(holder?.cmsPermissions[module] ?? 'none', grant.cmsPermissions[module] ?? 'none'));
}

/** No escalation: a member who runs the team touches only roles within their own (null: no role, nothing to hold to). */
function holdWithin(member: Authenticated | null, ...roles: (RoleInfo | null)[]): void {
  if (member && roles.some((role) => role && !withinRole(role, member.roleInfo))) throw new HttpError(400, messages.beyondOwnRole);
}

/** A role of the route's website by its id (null: none, or not this website's: its key will refuse it). */
async function roleOf(tx: Tx, request: FastifyRequest, id: unknown): Promise<RoleInfo | null> {
  if (typeof id !== 'string' || !isUuid(id)) return null;
  const [role] = await tx
    .select({ permissions: teamRoles.permissions, cmsPermissions: teamRoles.cmsPermissions })
    .from(teamRoles)
    .where(and(eq(teamRoles.id, id), eq(teamRoles.websiteId, request.website!.id)));
  return role ?? null;
}

/** The id the item path names: a UUID by the time a hook runs (the CRUD answers 404 to any other). */
const itemId = (request: FastifyRequest, param: string) => (request.params as Record<string, string>)[param]!;

/**
 * No escalation (spec §6 levels): a member who runs the team makes, changes and removes only roles
 * within their own, and never one above it, even to lower it. Their own role may shrink.
 */
const roleRules: ResourceHooks = {
  beforeCreate(values, { request }) {
    holdWithin(memberCalling(request), values as RoleInfo);
    return values;
  },
  async beforeUpdate(changes, { tx, request }) {
    const member = memberCalling(request);
    if (!member) return changes;
    // The role as it is before the change; none: the CRUD answers 404.
    const current = await roleOf(tx, request, itemId(request, 'roleId'));
    if (current) holdWithin(member, current, { ...current, ...changes } as RoleInfo);
    return changes;
  },
  afterDelete(row, { request }) {
    holdWithin(memberCalling(request), row as unknown as RoleInfo);
  },
};

/**
 * Every member is an account of type teammember on the route's website. A member who runs the team
 * assigns only roles within their own, leaves alone those whose role is above theirs, and cannot
 * change their own role or status or remove themselves (owners do that).
 */
const memberRules: ResourceHooks = {
  async beforeCreate(values, { tx, request }) {
    const member = memberCalling(request);
    if (member) holdWithin(member, await roleOf(tx, request, values.teamRoleId));
    return { ...values, type: 'teammember' };
  },
  async beforeUpdate(changes, { tx, request }) {
    const member = memberCalling(request);
    if (!member) return changes;
    const [current] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, itemId(request, 'memberId')), eq(users.websiteId, request.website!.id), memberRows));
    if (!current) return changes;
    const moved = (key: 'teamRoleId' | 'status') => key in changes && changes[key] !== current[key];
    if (current.id === member.user.id && (moved('teamRoleId') || moved('status'))) throw new HttpError(400, messages.ownTeamStanding);
    holdWithin(member, ...(await Promise.all([roleOf(tx, request, current.teamRoleId), moved('teamRoleId') ? roleOf(tx, request, changes.teamRoleId) : null])));
    return changes;
  },
  async afterDelete(row, { tx, request }) {
    const member = memberCalling(request);
    if (!member) return;
    if (row.id === member.user.id) throw new HttpError(400, messages.ownTeamStanding);
    holdWithin(member, await roleOf(tx, request, row.teamRoleId));
  },
};

/**
 * A website's team (spec §7 Team): roles and members on the generic CRUD, both behind the team
 * flag. A role's change reaches its members on their next call (the session query joins the role
 * every time); a member suspended or removed is signed out at once (sessions are revoked, or go
 * with the account).
 */
export async function teamRoutes(app: FastifyInstance, ctx: ServerContext) {
  registerResource(app, ctx, teamRolesEntry, teamRoles, roleRules);
  registerResource(app, ctx, teamMembers, users, composeHooks(memberRules, invitationHooks(ctx)), { rows: { column: 'type', in: ['teammember'] } });
}
