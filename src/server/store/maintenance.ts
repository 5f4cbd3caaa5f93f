import { lt, or, sql } from 'drizzle-orm';
import { RECYCLE_BIN_DAYS } from '../../contract/resources/recycle-bin';
import { DEVICE_TTL_MS } from '../auth/known-devices';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../auth/sessions';
import { IDEMPOTENCY_TTL_MS } from '../http/idempotency';
import type { Db } from './open';
import { idempotencyKeys, knownDevices, pinChallenges, rateLimits, sessions } from './schema';

const DAY_MS = 24 * 3600_000;

/** A record deleted for good, as its delete revision kept it: its table, and its values by the database's names of the columns. */
export interface DeletedRecord {
  tableName: string;
  values: Readonly<Record<string, unknown>>;
}

/**
 * Deletes what can never matter again: rate-limit windows over a day old, PIN challenges a day
 * past their life, sessions that ended (by age, idleness, or revocation a day ago), and
 * idempotency keys past their 7 days, devices not signed in on for a year (auth/known-devices.ts),
 * and the recycle bin's entries past RECYCLE_BIN_DAYS with the records they kept (their delete
 * revisions): one statement, so several instances pruning at once each purge what is there.
 * Answers the records the bin no longer keeps, whose files are the app's to remove (crud/files.ts).
 */
export async function pruneExpired(db: Db, now: Date): Promise<DeletedRecord[]> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, ago(DAY_MS)));
  await db.delete(pinChallenges).where(lt(pinChallenges.expiresAt, ago(DAY_MS)));
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, ago(IDEMPOTENCY_TTL_MS)));
  await db.delete(knownDevices).where(lt(knownDevices.lastSignInAt, ago(DEVICE_TTL_MS)));
  const purged = (await db.execute(sql`
    with purged as (delete from recycle_bin where created_at < ${ago(RECYCLE_BIN_DAYS * DAY_MS).toISOString()}::timestamptz returning tx)
    delete from revisions where action = 'delete' and tx in (select tx from purged)
    returning table_name as "tableName", "values"`)) as unknown as { rows: DeletedRecord[] };
  await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.createdAt, ago(ABSOLUTE_TIMEOUT_MS)),
        lt(sessions.lastSeenAt, ago(IDLE_TIMEOUT_MS)),
        // NULL never compares less: live sessions are untouched by this condition.
        lt(sessions.revokedAt, ago(DAY_MS)),
      ),
    );
  return purged.rows;
}
