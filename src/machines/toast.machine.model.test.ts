import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, type EventObject } from 'xstate';
import { TOAST_KINDS, toastMachine, type ToastEvent } from './toast.machine';

const VISIBLE_MS = 5000;
const FADE_MS = 300;
const FRESH_MS = 1000;

// Every kind shown once; a second toast only as the last step, so no path asks the clock for two
// timers in an order real time cannot produce (toast.machine.test.ts covers toasts side by side).
const model = createTestModel(toastMachine, {
  events: (state) => [
    ...TOAST_KINDS.map((kind) => ({ type: 'toast.show' as const, kind, message: `A ${kind} message` })),
    { type: 'toast.navigate' as const },
    ...state.context.toasts.flatMap(({ id }) => [
      { type: 'toast.dismiss' as const, id },
      { type: 'toast.settle' as const, id },
      { type: 'toast.fade' as const, id },
      { type: 'toast.remove' as const, id },
    ]),
  ],
  stopWhen: (state) => state.context.nextId > 2,
});

const idOf = (event: EventObject) => (event as Extract<ToastEvent, { id: string }>).id;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('toastMachine', () => {
  it.each(model.getSimplePaths().map((path) => [path.description, path] as const))('%s', async (_name, path) => {
    const actor = createActor(toastMachine).start();
    const shownAt = new Map<string, number>();
    const fadingSince = new Map<string, number>();
    const phaseOf = (id: string) => actor.getSnapshot().context.toasts.find((toast) => toast.id === id)?.phase;
    // Time runs up to one millisecond before the deadline, where nothing may have happened yet.
    const runUntil = (deadline: number, id: string, before: string | undefined) => {
      vi.advanceTimersByTime(deadline - Date.now() - 1);
      expect(phaseOf(id)).toBe(before);
      vi.advanceTimersByTime(1);
    };

    await path.test({
      events: {
        'toast.show': ({ event }) => {
          shownAt.set(`toast-${actor.getSnapshot().context.nextId}`, Date.now());
          actor.send(event as ToastEvent);
        },
        'toast.dismiss': ({ event }) => {
          fadingSince.set(idOf(event), Date.now());
          actor.send(event as ToastEvent);
        },
        // Leaving the page fades the toasts that did not come with the move; a fresh one stays.
        'toast.navigate': ({ event }) => {
          for (const toast of actor.getSnapshot().context.toasts) if (toast.phase === 'visible' && !toast.fresh) fadingSince.set(toast.id, Date.now());
          actor.send(event as ToastEvent);
        },
        'toast.settle': ({ event }) => {
          const freshOf = () => actor.getSnapshot().context.toasts.find((toast) => toast.id === idOf(event))?.fresh;
          vi.advanceTimersByTime((shownAt.get(idOf(event)) ?? 0) + FRESH_MS - Date.now() - 1);
          expect(freshOf()).toBe(true);
          vi.advanceTimersByTime(1);
        },
        'toast.fade': ({ event }) => {
          runUntil((shownAt.get(idOf(event)) ?? 0) + VISIBLE_MS, idOf(event), 'visible');
          fadingSince.set(idOf(event), Date.now());
        },
        'toast.remove': ({ event }) => runUntil((fadingSince.get(idOf(event)) ?? 0) + FADE_MS, idOf(event), 'fading'),
      },
      states: {
        '*': (state) => expect(actor.getSnapshot().context).toEqual(state.context),
      },
    });
    actor.stop();
  });
});
