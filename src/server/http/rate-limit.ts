import { sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { messages } from '../../contract/messages';
import type { Db } from '../store/open';
import { keepIfRefused, type Tx } from '../store/request-transaction';
import { rateLimits } from '../store/schema';
import { HttpError } from './errors';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Counts one hit on `key` in a fixed window; true while the count is within the limit. The count
 * stands when the request is refused (ADR 016): that is what it is there to count.
 */
export async function hit(db: Db, key: string, limit: Limit, now: Date): Promise<boolean> {
  keepIfRefused((tx) => count(tx, key, limit, now));
  return (await count(db, key, limit, now)) <= limit.max;
}

async function count(db: Db | Tx, key: string, { windowMs }: Limit, now: Date): Promise<number> {
  const cutoff = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      // Both expressions read the row as it was: an expired window restarts at 1.
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} <= ${cutoff} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${cutoff} THEN ${now.toISOString()}::timestamptz ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count });
  return row?.count ?? 0;
}

/** Counts every check (so none is skipped) and answers 429 if any is over its limit. */
export async function enforce(db: Db, reply: FastifyReply, checks: [key: string, limit: Limit][], now: Date): Promise<void> {
  const within = await Promise.all(checks.map(([key, limit]) => hit(db, key, limit, now)));
  const over = checks.filter((_, i) => !within[i]);
  if (over.length === 0) return;
  reply.header('retry-after', Math.ceil(Math.max(...over.map(([, limit]) => limit.windowMs)) / 1000));
  throw new HttpError(429, messages.tooManyRequests);
}
