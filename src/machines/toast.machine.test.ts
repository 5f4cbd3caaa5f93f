import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { toastMachine } from './toast.machine';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function phases(actor: ReturnType<typeof createActor<typeof toastMachine>>) {
  return actor.getSnapshot().context.toasts.map(({ message, phase }) => `${message}:${phase}`);
}

describe('toastMachine with several toasts', () => {
  it('runs each toast on its own clock', () => {
    const actor = createActor(toastMachine).start();
    actor.send({ type: 'toast.show', kind: 'success', message: 'first' });
    vi.advanceTimersByTime(1000);
    actor.send({ type: 'toast.show', kind: 'error', message: 'second' });

    vi.advanceTimersByTime(4000);
    expect(phases(actor)).toEqual(['first:fading', 'second:visible']);
    vi.advanceTimersByTime(300);
    expect(phases(actor)).toEqual(['second:visible']);
    vi.advanceTimersByTime(700);
    expect(phases(actor)).toEqual(['second:fading']);
    vi.advanceTimersByTime(300);
    expect(phases(actor)).toEqual([]);
  });

  it('dismisses only the toast asked for', () => {
    const actor = createActor(toastMachine).start();
    actor.send({ type: 'toast.show', kind: 'info', message: 'first' });
    actor.send({ type: 'toast.show', kind: 'warning', message: 'second' });
    const [first] = actor.getSnapshot().context.toasts;

    actor.send({ type: 'toast.dismiss', id: first?.id ?? '' });
    expect(phases(actor)).toEqual(['first:fading', 'second:visible']);
    vi.advanceTimersByTime(300);
    expect(phases(actor)).toEqual(['second:visible']);

    vi.advanceTimersByTime(4700);
    expect(phases(actor)).toEqual(['second:fading']);
  });
});

describe('toastMachine when the person leaves the page', () => {
  it('fades the toasts about the page left, keeps one that came with the move, and keeps the spec’s timings', () => {
    const actor = createActor(toastMachine).start();
    actor.send({ type: 'toast.show', kind: 'error', message: 'about this page' });
    vi.advanceTimersByTime(1000);
    // A save's answer, then its form goes back to the list: the toast is about where the person goes.
    actor.send({ type: 'toast.show', kind: 'success', message: 'saved' });
    vi.advanceTimersByTime(999);

    actor.send({ type: 'toast.navigate' });
    expect(phases(actor)).toEqual(['about this page:fading', 'saved:visible']);
    vi.advanceTimersByTime(300);
    expect(phases(actor)).toEqual(['saved:visible']);

    // Its own 5000 ms and 300 ms, unless the person moves on again.
    vi.advanceTimersByTime(5000 - 999 - 300 - 1);
    expect(phases(actor)).toEqual(['saved:visible']);
    vi.advanceTimersByTime(1);
    expect(phases(actor)).toEqual(['saved:fading']);
  });

  it('fades a toast on the next page change once it has settled', () => {
    const actor = createActor(toastMachine).start();
    actor.send({ type: 'toast.show', kind: 'success', message: 'saved' });
    actor.send({ type: 'toast.navigate' });
    vi.advanceTimersByTime(1000);
    actor.send({ type: 'toast.navigate' });
    expect(phases(actor)).toEqual(['saved:fading']);
  });
});
