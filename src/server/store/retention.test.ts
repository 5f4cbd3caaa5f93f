// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { uuidv7 } from '../../contract/uuid';
import type { Store } from './open';
import { pruneRevisions } from './retention';
import { revisions } from './schema';

const NOW = new Date('2026-11-26T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 3600_000);

describe.each(storeKinds)('history retention (%s)', (kind) => {
  let store: Store | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
  });

  const write = (recordId: string, createdAt: Date, n = 1) =>
    store!.db.insert(revisions).values(
      Array.from({ length: n }, (_, index) => ({
        tableName: 'gastro_items',
        recordId,
        action: 'update',
        actorKind: 'user',
        values: { price: index },
        createdAt: new Date(createdAt.getTime() + index * 1000),
      })),
    );
  const count = async (recordId: string) => (await store!.db.select().from(revisions).where(eq(revisions.recordId, recordId))).length;

  it('drops revisions older than the kept days, and a record’s oldest beyond its share, keeping its newest', async () => {
    store = await createTestStore(kind);
    const [old, busy, quiet] = [uuidv7(), uuidv7(), uuidv7()];
    await write(old, daysAgo(400), 3);
    await write(old, daysAgo(10), 2);
    await write(busy, daysAgo(5), 12);
    await write(quiet, daysAgo(5), 4);

    expect(await pruneRevisions(store.db, NOW, { keepDays: 365, perRecord: 10 })).toBe(true);
    expect(await count(old)).toBe(2);
    expect(await count(quiet)).toBe(4);
    const kept = await store.db.select({ price: sql<number>`(${revisions.values} ->> 'price')::int` }).from(revisions).where(eq(revisions.recordId, busy));
    expect(kept.map((row) => row.price).toSorted((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('leaves the work to an instance already at it: no prune runs twice at once', async () => {
    store = await createTestStore(kind);
    const record = uuidv7();
    await write(record, daysAgo(400), 2);
    if (kind === 'pglite') {
      // One process holds an embedded store: a second prune can only come after the first.
      expect(await pruneRevisions(store.db, NOW, { keepDays: 365, perRecord: 200 })).toBe(true);
      expect(await count(record)).toBe(0);
      return;
    }
    // Another instance in the middle of its prune: it holds the lock in its transaction, on a connection of its own.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const running = store.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7110020)`);
      locked();
      await held;
    });
    await taken;
    expect(await pruneRevisions(store.db, NOW, { keepDays: 365, perRecord: 200 })).toBe(false);
    expect(await count(record)).toBe(2);
    release();
    await running;
    expect(await pruneRevisions(store.db, NOW, { keepDays: 365, perRecord: 200 })).toBe(true);
    expect(await count(record)).toBe(0);
  });
});
