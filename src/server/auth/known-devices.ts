import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac } from 'node:crypto';
import type { Db } from '../store/open';
import { knownDevices, sessions } from '../store/schema';
import { readCookie, setCookie } from './cookies';
import { hashToken, newToken } from './secrets';

// OWASP's device cookies (ADR 017): a browser that signed in to an account keeps its own login
// limit for that account, so strangers filling the account's limit do not lock it out.

/** A device stays known this long after its last sign-in. */
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;

/**
 * One cookie per account, so a browser shared by two accounts knows both. The name is keyed with
 * APP_SECRET: it tells nobody which account it is for, and nobody can make one up for an account.
 * `who` is the account's id, or the stand-in of a name no account has, so both take the same path.
 */
export function deviceCookieName(secret: string, who: string): string {
  return `sk_device_${createHmac('sha256', secret).update(`device-cookie:${who}`).digest('base64url').slice(0, 16)}`;
}

/** The id of this browser's known device for the user, or null when its cookie is missing, forged, another account's or expired. */
export async function knownDevice(db: Db, secret: string, request: FastifyRequest, userId: string, now: Date): Promise<string | null> {
  const token = readCookie(request, deviceCookieName(secret, userId));
  if (!token) return null;
  const [device] = await db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(
      and(
        eq(knownDevices.tokenHash, hashToken(token)),
        eq(knownDevices.userId, userId),
        gt(knownDevices.lastSignInAt, new Date(now.getTime() - DEVICE_TTL_MS)),
      ),
    );
  return device?.id ?? null;
}

/**
 * After a sign-in or a password reset: this browser is known for the user for a year from now. Its
 * cookie gets a new token each time, so a copy taken earlier stops counting once the owner signs in
 * again. Returns the device's id; a new device clears the user's expired ones away.
 */
export async function rememberDevice(db: Db, secret: string, request: FastifyRequest, reply: FastifyReply, userId: string, now: Date): Promise<string> {
  const token = newToken();
  const values = { tokenHash: hashToken(token), lastSignInAt: now };
  let id = await knownDevice(db, secret, request, userId, now);
  if (id) {
    await db.update(knownDevices).set(values).where(eq(knownDevices.id, id));
  } else {
    await db.delete(knownDevices).where(and(eq(knownDevices.userId, userId), lt(knownDevices.lastSignInAt, new Date(now.getTime() - DEVICE_TTL_MS))));
    const [added] = await db.insert(knownDevices).values({ userId, createdAt: now, ...values }).returning({ id: knownDevices.id });
    id = added!.id;
  }
  setCookie(request, reply, deviceCookieName(secret, userId), token, DEVICE_TTL_MS / 1000);
  return id;
}

/** The user's devices are strangers again (a password reset), but the one of `keepSessionId` (a password change, from that session). */
export async function forgetDevices(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  // IS DISTINCT FROM: a session opened on no known device keeps none (NULL would keep them all).
  const kept = keepSessionId ? sql`${knownDevices.id} is distinct from (select ${sessions.deviceId} from ${sessions} where ${sessions.id} = ${keepSessionId})` : undefined;
  await db.delete(knownDevices).where(and(eq(knownDevices.userId, userId), kept));
}

/** The device a session was opened on is a stranger again (the session was signed out in the profile). */
export async function forgetSessionDevice(db: Db, userId: string, sessionId: string): Promise<void> {
  await db.delete(knownDevices).where(
    and(eq(knownDevices.userId, userId), eq(knownDevices.id, sql`(select ${sessions.deviceId} from ${sessions} where ${sessions.id} = ${sessionId} and ${sessions.userId} = ${userId})`)),
  );
}
