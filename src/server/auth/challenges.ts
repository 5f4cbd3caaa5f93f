import { and, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from '../../contract/uuid';
import type { Db } from '../store/open';
import { pinChallenges } from '../store/schema';
import { hashPin, hashToken, newPin, newToken, sameHash } from './secrets';

export const PIN_TTL_MS = 10 * 60_000;
export const MAX_PIN_ATTEMPTS = 5;
export const RESET_TOKEN_TTL_MS = 15 * 60_000;

type Purpose = 'login' | 'reset';
type Challenge = typeof pinChallenges.$inferSelect;
export type PinCheck = { ok: true; challenge: Challenge } | { ok: false; locked: boolean };

export interface ChallengeContext {
  db: Db;
  secret: string;
  now: Date;
}

/** How long the PIN of an invitation, or of a reset an admin asked for, stays valid: the mail may wait a few days to be read. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/**
 * A new PIN for the user; any earlier open challenge of the same purpose dies with it. `attemptHash`
 * binds a sign-in PIN to the browser that gave the password (see issueSignInPin).
 */
export async function issuePin({ db, secret, now }: ChallengeContext, userId: string, purpose: Purpose, ttlMs = PIN_TTL_MS, attemptHash: string | null = null): Promise<string> {
  const pin = newPin();
  const id = uuidv7();
  await db.transaction(async (tx) => {
    await tx
      .update(pinChallenges)
      .set({ consumedAt: now })
      .where(and(eq(pinChallenges.userId, userId), eq(pinChallenges.purpose, purpose), isNull(pinChallenges.consumedAt)));
    await tx.insert(pinChallenges).values({
      id,
      userId,
      purpose,
      pinHash: hashPin(secret, id, pin),
      attemptHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
  });
  return pin;
}

/**
 * A sign-in PIN and the token of the attempt it belongs to, which the browser keeps in a cookie:
 * only a request carrying it may try the PIN, so nobody without the password can spend the PIN's
 * five tries (ADR 017).
 */
export async function issueSignInPin(ctx: ChallengeContext, userId: string): Promise<{ pin: string; attempt: string }> {
  const attempt = newToken();
  return { pin: await issuePin(ctx, userId, 'login', PIN_TTL_MS, hashToken(attempt)), attempt };
}

/** Compares the PIN with the challenge's; a wrong one counts, and the fifth kills the challenge. */
export async function comparePin({ db, secret }: ChallengeContext, challenge: Challenge | undefined, pin: string): Promise<PinCheck> {
  if (!challenge) return { ok: false, locked: false };
  if (sameHash(challenge.pinHash, hashPin(secret, challenge.id, pin))) return { ok: true, challenge };
  const [row] = await db
    .update(pinChallenges)
    .set({ attempts: sql`${pinChallenges.attempts} + 1` })
    .where(eq(pinChallenges.id, challenge.id))
    .returning({ attempts: pinChallenges.attempts });
  return { ok: false, locked: (row?.attempts ?? MAX_PIN_ATTEMPTS) >= MAX_PIN_ATTEMPTS };
}

const unusedAndUnlocked = () => and(isNull(pinChallenges.consumedAt), lt(pinChallenges.attempts, MAX_PIN_ATTEMPTS));

/** The user's open challenge of `purpose` (a reset challenge only until its token is issued) that also meets `condition`. */
async function openChallenge({ db, now }: ChallengeContext, userId: string, purpose: Purpose, condition?: SQL): Promise<Challenge | undefined> {
  const [challenge] = await db
    .select()
    .from(pinChallenges)
    .where(
      and(
        eq(pinChallenges.userId, userId),
        eq(pinChallenges.purpose, purpose),
        isNull(pinChallenges.tempTokenHash),
        gt(pinChallenges.expiresAt, now),
        unusedAndUnlocked(),
        condition,
      ),
    )
    .orderBy(desc(pinChallenges.createdAt))
    .limit(1);
  return challenge;
}

/** The user's open sign-in challenge if it was mailed for this attempt; undefined for anyone else's request. */
export function signInChallenge(ctx: ChallengeContext, userId: string, attempt: string): Promise<Challenge | undefined> {
  return openChallenge(ctx, userId, 'login', eq(pinChallenges.attemptHash, hashToken(attempt)));
}

/** Checks the PIN of the user's open reset challenge. */
export async function checkResetPin(ctx: ChallengeContext, userId: string, pin: string): Promise<PinCheck> {
  return comparePin(ctx, await openChallenge(ctx, userId, 'reset'), pin);
}

/** Uses a challenge up. False when a concurrent request got there first: a PIN works once. */
export async function consume({ db, now }: ChallengeContext, challengeId: string): Promise<boolean> {
  const used = await db
    .update(pinChallenges)
    .set({ consumedAt: now })
    .where(and(eq(pinChallenges.id, challengeId), isNull(pinChallenges.consumedAt)))
    .returning({ id: pinChallenges.id });
  return used.length === 1;
}

/** After a verified reset PIN: the temporary token that, with the same PIN, sets a new password. */
export async function issueResetToken({ db, now }: ChallengeContext, challengeId: string): Promise<string | null> {
  const token = newToken();
  const issued = await db
    .update(pinChallenges)
    .set({ tempTokenHash: hashToken(token), tempTokenExpiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) })
    .where(and(eq(pinChallenges.id, challengeId), isNull(pinChallenges.consumedAt), isNull(pinChallenges.tempTokenHash)))
    .returning({ id: pinChallenges.id });
  return issued.length === 1 ? token : null;
}

/** The reset challenge a temporary token belongs to, checked against its PIN once more. */
export async function checkResetToken(ctx: ChallengeContext, token: string, pin: string): Promise<PinCheck> {
  const [challenge] = await ctx.db
    .select()
    .from(pinChallenges)
    .where(
      and(
        eq(pinChallenges.tempTokenHash, hashToken(token)),
        eq(pinChallenges.purpose, 'reset'),
        // The token has its own lifetime: the PIN may expire while the user picks a password.
        gt(pinChallenges.tempTokenExpiresAt, ctx.now),
        unusedAndUnlocked(),
      ),
    );
  return comparePin(ctx, challenge, pin);
}
