import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CMS_MODULES, FEATURES, LEVELS, type Level, type RoleInfo } from '../../src/contract/permissions';
import { uuidv7 } from '../../src/contract/uuid';
import { hashToken } from '../../src/server/auth/secrets';
import type { Store } from '../../src/server/store/open';
import { apiKeys, sessions, teamRoles, users } from '../../src/server/store/schema';
import { tokenFor } from './auth';
import type { Cast } from './cast';

/*
 * Everyone who calls the API in the suites over every route: nobody, an admin, the owners of
 * websites A and B, the partner of A, team members of A holding each role `matrixRoles` names, a
 * member of B holding everything, and the delivery API keys of A and B. Each knows which websites
 * it reaches, which is all the expectations of the matrix need besides its role.
 */

export type PrincipalKind = 'anonymous' | 'admin' | 'owner' | 'member' | 'key';

export interface Principal {
  name: string;
  kind: PrincipalKind;
  userId?: string;
  /** A member's website, or the website a key names. */
  website?: string;
  /** A member's role. */
  role?: RoleInfo;
  headers: Record<string, string>;
}

const NO_FLAGS = { cms: false, seo: false, team: false, settings: false };
const EVERY_FLAG = { cms: true, seo: true, team: true, settings: true };
const allModules = (level: Level, except?: string) => Object.fromEntries(CMS_MODULES.map((module) => [module, module === except ? 'none' : level]));

export const EVERYTHING: RoleInfo = { permissions: EVERY_FLAG, cmsPermissions: allModules('manage') };

/**
 * The roles members of A call with, by a name that says what they hold: every level of each CMS
 * module alone, every module but one, each flag alone and every flag but one, no flag, and all.
 */
export function matrixRoles(): Record<string, RoleInfo> {
  const roles: Record<string, RoleInfo> = {
    // Every module at manage and every other flag, but no cms flag: the CMS stays shut.
    'cms off': { permissions: { ...EVERY_FLAG, cms: false }, cmsPermissions: allModules('manage') },
    nothing: { permissions: NO_FLAGS, cmsPermissions: {} },
    everything: EVERYTHING,
  };
  for (const module of CMS_MODULES) {
    for (const level of LEVELS) roles[`${module} ${level}`] = { permissions: { ...NO_FLAGS, cms: true }, cmsPermissions: { [module]: level } };
    roles[`all but ${module}`] = { permissions: EVERY_FLAG, cmsPermissions: allModules('manage', module) };
  }
  for (const flag of ['cms', ...FEATURES] as const) {
    roles[`only ${flag}`] = { permissions: { ...NO_FLAGS, [flag]: true }, cmsPermissions: {} };
    roles[`all but ${flag}`] = { permissions: { ...EVERY_FLAG, [flag]: false }, cmsPermissions: flag === 'cms' ? {} : allModules('manage') };
  }
  return roles;
}

/** A team member of `websiteId` holding `role`, signed in. Inserted directly: nobody signs in with a password here. */
export async function seedMember(store: Store, websiteId: string, name: string, role: RoleInfo): Promise<Principal> {
  const [row] = await store.db.insert(teamRoles).values({ websiteId, name, ...role }).returning();
  const tag = uuidv7();
  const [user] = await store.db
    .insert(users)
    .values({ type: 'teammember', email: `${tag}@matrix.example.test`, username: `m-${tag}`, passwordHash: 'not a hash', verified: true, websiteId, teamRoleId: row!.id })
    .returning();
  return { name: `member "${name}"`, kind: 'member', userId: user!.id, website: websiteId, role, headers: bearer(await tokenFor(store, user!.id)) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A website's delivery API key, made by its owner as a person makes one: the answer shows it whole, once. */
export async function seedKey(app: FastifyInstance, websiteId: string, owner: Record<string, string>, name: string): Promise<Principal & { key: string }> {
  const res = await app.inject({ method: 'POST', url: `/api/websites/${websiteId}/api-key`, headers: owner, payload: {} });
  const key = res.json().data?.key as string | undefined;
  if (res.statusCode !== 201 || !key) throw new Error(`No API key for ${websiteId}: ${res.statusCode} ${res.body}`);
  return { name, kind: 'key', website: websiteId, headers: { 'x-api-key': key }, key };
}

/** Puts a key principal's key back in place, active: a call that made a new key or switched it off replaced it. */
export async function keepKey(store: Store, principal: { website?: string; key: string }): Promise<void> {
  // The prefix as the server keeps it: `skp_` and the next 8 characters.
  const values = { websiteId: principal.website!, keyHash: hashToken(principal.key), prefix: principal.key.slice(0, 12), isActive: true };
  await store.db.insert(apiKeys).values(values).onConflictDoUpdate({ target: apiKeys.websiteId, set: values });
}

/** A signed-in principal whose session a call ended (sign-out, suspension, password change) gets a new one. */
export async function keepSignedIn(store: Store, principal: Principal): Promise<void> {
  const token = principal.headers.authorization?.slice('Bearer '.length);
  if (!token || !principal.userId) return;
  const [session] = await store.db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  if (!session || session.revokedAt) principal.headers = bearer(await tokenFor(store, principal.userId));
}

/** The cast as principals, with the two keys and nobody; members of A by `roles`, and B's member with everything. */
export async function seedPrincipals(app: FastifyInstance, store: Store, cast: Cast, roles: Record<string, RoleInfo>) {
  const user = (name: keyof Cast['ids'], kind: PrincipalKind): Principal => ({ name, kind, userId: cast.ids[name], headers: { ...cast.headers[name] } });
  const anonymous: Principal = { name: 'anonymous', kind: 'anonymous', headers: {} };
  const admin = user('admin', 'admin');
  const ownerA = user('ownerA', 'owner');
  const ownerB = user('ownerB', 'owner');
  const partner = user('partner', 'owner');
  const members = new Map<string, Principal>();
  for (const [name, role] of Object.entries(roles)) members.set(name, await seedMember(store, cast.site.A, name, role));
  const memberB = { ...(await seedMember(store, cast.site.B, 'everything', EVERYTHING)), name: 'member of B' };
  const keyA = await seedKey(app, cast.site.A, cast.headers.ownerA, 'key of A');
  const keyB = await seedKey(app, cast.site.B, cast.headers.ownerB, 'key of B');
  return { anonymous, admin, ownerA, ownerB, partner, members, memberB, keyA, keyB };
}
export type Principals = Awaited<ReturnType<typeof seedPrincipals>>;
