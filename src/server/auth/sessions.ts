import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../store/open';
import { sessions, users } from '../store/schema';
import { hashToken, newToken } from './secrets';

export const IDLE_TIMEOUT_MS = 7 * 24 * 3600_000;
export const ABSOLUTE_TIMEOUT_MS = 30 * 24 * 3600_000;
// Writing last-seen on every request would make every read a write; a minute is precise enough.
const TOUCH_INTERVAL_MS = 60_000;

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

export async function openSession(db: Db, userId: string, device: { userAgent: string; ip: string }, now: Date): Promise<string> {
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

/** The session and user behind a bearer token, or null when it is unknown, ended or its user may not sign in. */
export async function authenticate(db: Db, token: string, now: Date): Promise<{ session: SessionRow; user: UserRow } | null> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashToken(token)));
  if (!row || !isLive(row.session, now) || row.user.status !== 'active') return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
  }
  return row;
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
