// @vitest-environment node
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ChangeFeed, Heard, Listener } from './changes';
import { websiteMemos } from './memo';

/*
 * What the server remembers of a website (live/memo.ts), told of changes by a feed this test
 * plays: a value read before a change is never kept past it, nothing outlives its time, and the
 * oldest goes first when it is full. The delivery API's use of it: routes/public.test.ts.
 */

function feed() {
  const listeners = new Set<Listener>();
  const changes = {
    subscribe: (listener: Listener) => (listeners.add(listener), () => listeners.delete(listener)),
  } as unknown as ChangeFeed;
  const tell = (change: Partial<Heard> | 'gap') => {
    for (const listener of listeners) listener(change === 'gap' ? change : ({ id: '1', table: 'cms_pages', record: 'r', action: 'update', version: 2, website: null, ...change } as Heard));
  };
  return { changes, tell };
}

function setUp({ max = 10, ttlMs = 30_000 } = {}) {
  const { changes, tell } = feed();
  let now = 0;
  const memo = websiteMemos(Fastify(), changes, () => now).memo<string>({ max, ttlMs });
  return { memo, tell, later: (ms: number) => void (now += ms) };
}

describe('a website memo', () => {
  it('keeps a value until a change of its website is heard, and only of its website', () => {
    const { memo, tell } = setUp();
    memo.keep('a', 'site-a', 'A', memo.mark());
    memo.keep('b', 'site-b', 'B', memo.mark());
    tell({ website: 'site-b' });
    // A change of no website (a catalog, a user) is not the delivery API's.
    tell({ website: null });
    expect(memo.get('a')).toBe('A');
    expect(memo.get('b')).toBeUndefined();
  });

  it('does not keep what was read before a change it heard meanwhile', () => {
    const { memo, tell } = setUp();
    const mark = memo.mark();
    tell({ website: 'site-a' });
    memo.keep('a', 'site-a', 'stale', mark);
    expect(memo.get('a')).toBeUndefined();
    memo.keep('a', 'site-a', 'fresh', memo.mark());
    expect(memo.get('a')).toBe('fresh');
  });

  it('forgets everything at a gap in the feed, even what was being read across it', () => {
    const { memo, tell } = setUp();
    memo.keep('a', 'site-a', 'A', memo.mark());
    const mark = memo.mark();
    tell('gap');
    memo.keep('b', 'site-b', 'B', mark);
    expect([memo.get('a'), memo.get('b')]).toEqual([undefined, undefined]);
  });

  it('forgets a value after its time though nothing was heard', () => {
    const { memo, later } = setUp({ ttlMs: 30_000 });
    memo.keep('a', 'site-a', 'A', memo.mark());
    later(30_000);
    expect(memo.get('a')).toBe('A');
    later(1);
    expect(memo.get('a')).toBeUndefined();
  });

  it('holds at most its size, forgetting the oldest first', () => {
    const { memo } = setUp({ max: 2 });
    for (const key of ['a', 'b', 'c']) memo.keep(key, 'site-a', key.toUpperCase(), memo.mark());
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).toEqual([undefined, 'B', 'C']);
  });
});
