import { lt, sql } from 'drizzle-orm';
import type { HistoryRetention } from '../config';
import type { Db } from './open';
import { revisions } from './schema';

const DAY_MS = 24 * 3600_000;
/** Any number: the same in every instance, so only one of them prunes at a time. */
const RETENTION_LOCK = 7_110_020;

/**
 * Revisions past the installation's retention (config.ts HISTORY_KEEP_DAYS, HISTORY_PER_RECORD):
 * older than `keepDays`, or beyond the newest `perRecord` of their record. One instance at a
 * time: several servers on one PostgreSQL take turns by an advisory lock, and one that finds it
 * taken leaves the work to the other (an embedded store has one process anyway). Answers whether
 * it pruned.
 */
export async function pruneRevisions(db: Db, now: Date, { keepDays, perRecord }: HistoryRetention): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = (await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`)) as unknown as { rows: { locked: boolean }[] };
    if (!rows[0]?.locked) return false;
    await tx.delete(revisions).where(lt(revisions.createdAt, new Date(now.getTime() - keepDays * DAY_MS)));
    // Only the records that have more than their share are ranked.
    await tx.execute(sql`
      delete from revisions r using (
        select id from (
          select id, row_number() over (partition by table_name, record_id order by created_at desc, id desc) as n
          from revisions where (table_name, record_id) in (select table_name, record_id from revisions group by 1, 2 having count(*) > ${perRecord})
        ) ranked where n > ${perRecord}
      ) extra where r.id = extra.id`);
    return true;
  });
}
