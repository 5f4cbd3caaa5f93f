import { index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { uuidv7 } from '../../../contract/uuid';
import { users } from './tenancy';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const challengePurpose = pgEnum('challenge_purpose', ['login', 'reset']);

/** A mailed PIN. Only its HMAC is stored; it dies when used, expired or guessed wrong 5 times. */
export const pinChallenges = pgTable(
  'pin_challenges',
  {
    id: uuid('id').primaryKey().$defaultFn(() => uuidv7()),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: challengePurpose('purpose').notNull(),
    pinHash: text('pin_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** Sign-in: the (hashed) token of the attempt the PIN was mailed for, kept in that browser's cookie; only it may try the PIN. */
    attemptHash: text('attempt_hash'),
    /** Password reset: the PIN was verified and this (hashed) temporary token issued for it. */
    tempTokenHash: text('temp_token_hash').unique(),
    tempTokenExpiresAt: at('temp_token_expires_at'),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('pin_challenges_user_idx').on(t.userId, t.purpose)],
);

/**
 * A browser that completed a sign-in (or a password reset) for the account: its cookie makes its
 * logins count against its own limit, not the one strangers can fill (ADR 017). Only the cookie's
 * SHA-256 is stored.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: uuid('id').primaryKey().$defaultFn(() => uuidv7()),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull(),
    lastSignInAt: at('last_sign_in_at').notNull(),
  },
  (t) => [index('known_devices_user_idx').on(t.userId)],
);

/** A signed-in device. The bearer token itself is never stored, only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().$defaultFn(() => uuidv7()),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The known device it was opened on: signing this session out in the profile forgets that device too. */
    deviceId: uuid('device_id').references(() => knownDevices.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull().unique(),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_device_idx').on(t.deviceId)],
);

/** Fixed-window counters, in the store so every instance shares them (docs/design.md §9). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: at('window_start').notNull(),
  count: integer('count').notNull(),
});
