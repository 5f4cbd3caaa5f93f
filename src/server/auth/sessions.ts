import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { RoleInfo } from '../../contract/permissions';
import type { Db } from '../store/open';
import { prepared } from '../store/prepared';
import { sessions, teamRoles, users } from '../store/schema';
import { hashToken, newToken } from './secrets';

export const IDLE_TIMEOUT_MS = 7 * 24 * 3600_000;
export const ABSOLUTE_TIMEOUT_MS = 30 * 24 * 3600_000;
// Writing last-seen on every request would make every read a write; a minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/** `deviceId`: the known device the session is opened on (auth/known-devices.ts), if any. */
export async function openSession(db: Db, userId: string, device: { userAgent: string; ip: string; deviceId?: string }, now: Date): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({ userId, tokenHash: hashToken(token), ...device, createdAt: now, lastSeenAt: now });
  return token;
}

export function isLive(session: SessionRow, now: Date): boolean {
  const t = now.getTime();
  return (
    !session.revokedAt &&
    t - session.lastSeenAt.getTime() < IDLE_TIMEOUT_MS &&
    t - session.createdAt.getTime() < ABSOLUTE_TIMEOUT_MS
  );
}

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
  /** A team member's role on their website; null for everyone else (and for a member without a role). */
  roleInfo: RoleInfo | null;
  /** That role's name, which the client shows; it grants nothing by itself. */
  roleName: string | null;
}

/** Every request runs this one. */
const sessionQuery = prepared((db) =>
  db
    .select({ session: sessions, user: users, roleName: teamRoles.name, permissions: teamRoles.permissions, cmsPermissions: teamRoles.cmsPermissions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // Only a role of the member's own website counts.
    .leftJoin(teamRoles, and(eq(teamRoles.id, users.teamRoleId), eq(teamRoles.websiteId, users.websiteId)))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('authenticate'),
);

/** What the session query reads for a token: its session, its user and the user's team role. */
export type SessionRecord = Awaited<ReturnType<ReturnType<typeof sessionQuery>['execute']>>[number];
/** The record of a token's hash, read now or remembered (auth/principals.ts). */
export type ReadSession = (tokenHash: string) => Promise<SessionRecord | undefined>;

export const readSession =
  (db: Db): ReadSession =>
  async (tokenHash) =>
    (await sessionQuery(db).execute({ tokenHash }))[0];

/**
 * The session, user and team role behind a bearer token in one query, or null when the token is
 * unknown, ended or its user may not sign in. Every check is made again on each call, on the
 * record as `read` gives it.
 */
export async function authenticate(db: Db, token: string, now: Date, read: ReadSession = readSession(db)): Promise<Authenticated | null> {
  const row = await read(hashToken(token));
  if (!row || !isLive(row.session, now) || row.user.status !== 'active') return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
  }
  // Copies: a remembered record is shared by every request of the token.
  const { roleName, permissions, cmsPermissions } = row;
  const session = { ...row.session };
  const user = { ...row.user };
  const member = user.type === 'teammember';
  const roleInfo = member && permissions && cmsPermissions ? { permissions, cmsPermissions } : null;
  return { session, user, roleInfo, roleName: member ? roleName : null };
}

export async function revokeSession(db: Db, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length === 1;
}

/** Every session of the user ends, but `keep` (the one changing the password stays signed in). */
export async function revokeAllSessions(db: Db, userId: string, now: Date, keep?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined));
}
