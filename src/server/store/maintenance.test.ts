// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { pruneExpired } from './maintenance';
import type { Store } from './open';
import { idempotencyKeys, knownDevices, pinChallenges, rateLimits, sessions } from './schema';

const stores: Store[] = [];
afterEach(async () => Promise.all(stores.splice(0).map((s) => s.close())));

const now = new Date('2026-06-01T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * 24 * 3600_000);

describe.each(storeKinds)('pruning expired rows (%s)', (kind) => {
  it('deletes what has ended and keeps what still counts', async () => {
    const store = await createTestStore(kind);
    stores.push(store);
    const user = await seedUser(store, { type: 'user', email: 'u@x.test', username: 'u', password: 'password 123' });
    const session = (tokenHash: string, createdAt: Date, lastSeenAt: Date, revokedAt: Date | null = null) => ({
      userId: user.id,
      tokenHash,
      createdAt,
      lastSeenAt,
      revokedAt,
    });
    await store.db.insert(sessions).values([
      session('live', ago(3), ago(1)),
      session('idle', ago(9), ago(8)),
      session('too-old', ago(31), ago(0)),
      session('revoked-an-hour-ago', ago(3), ago(0.05), ago(0.04)),
      session('revoked-two-days-ago', ago(3), ago(2), ago(2)),
    ]);
    await store.db.insert(rateLimits).values([
      { key: 'fresh', windowStart: ago(0.5), count: 3 },
      { key: 'stale', windowStart: ago(2), count: 3 },
    ]);
    const challenge = (expiresAt: Date) => ({ userId: user.id, purpose: 'login' as const, pinHash: 'h', createdAt: expiresAt, expiresAt });
    await store.db.insert(pinChallenges).values([challenge(ago(0.5)), challenge(ago(2))]);

    const answered = (key: string, createdAt: Date) => ({ caller: user.id, key, requestHash: 'h', status: 201, response: '{}', createdAt });
    await store.db.insert(idempotencyKeys).values([answered('six-days', ago(6)), answered('eight-days', ago(8))]);

    const device = (tokenHash: string, lastSignInAt: Date) => ({ userId: user.id, tokenHash, createdAt: lastSignInAt, lastSignInAt });
    await store.db.insert(knownDevices).values([device('signed-in-last-month', ago(30)), device('not-for-over-a-year', ago(366))]);

    await pruneExpired(store.db, now);

    expect((await store.db.select().from(sessions)).map((s) => s.tokenHash).toSorted()).toEqual(['live', 'revoked-an-hour-ago']);
    expect((await store.db.select().from(rateLimits)).map((r) => r.key)).toEqual(['fresh']);
    expect(await store.db.select().from(pinChallenges)).toHaveLength(1);
    expect((await store.db.select().from(idempotencyKeys)).map((k) => k.key)).toEqual(['six-days']);
    expect((await store.db.select().from(knownDevices)).map((d) => d.tokenHash)).toEqual(['signed-in-last-month']);
  });
});
