import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * docs/design.md §4: a mutation's Idempotency-Key with what it answered, kept 7 days. The key is
 * scoped to the caller, so one user's key can never replay another's answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    status: integer('status'),
    response: text('response'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.caller, t.key] })],
);
