// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rounds } from './rounds';

const log = { warn: vi.fn() } as never;

describe('rounds woken by kicks', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers a burst of kicks with one round at once and one after the gap, never one per kick, and loses none', async () => {
    let ran = 0;
    const job = rounds({ intervalMs: 3_600_000, kickGapMs: 250, round: async () => void (ran += 1), log, what: 'test' });
    job.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toBe(1);
    // A save every 5 ms for 200 ms: each kicks.
    for (let n = 0; n < 40; n += 1) {
      job.kick();
      await vi.advanceTimersByTimeAsync(5);
    }
    expect(ran).toBe(1);
    // The last kick came after the first round: it gets a round of its own once the gap has passed.
    await vi.advanceTimersByTimeAsync(60);
    expect(ran).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toBe(2);
    // Past the gap, a kick runs at once.
    job.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toBe(3);
    await job.stop();
  });

  it('without a gap runs at every kick, and a stopped job runs no waiting round', async () => {
    let ran = 0;
    const eager = rounds({ intervalMs: 3_600_000, round: async () => void (ran += 1), log, what: 'test' });
    for (let n = 0; n < 3; n += 1) {
      eager.kick();
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(ran).toBe(3);
    await eager.stop();

    let late = 0;
    const gapped = rounds({ intervalMs: 3_600_000, kickGapMs: 250, round: async () => void (late += 1), log, what: 'test' });
    gapped.kick();
    await vi.advanceTimersByTimeAsync(10);
    gapped.kick();
    await gapped.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(late).toBe(1);
  });
});
