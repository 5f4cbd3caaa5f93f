import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, type EventObject } from 'xstate';
import { confirmMachine, type ConfirmAnswer, type ConfirmDialogContent, type ConfirmEvent } from './confirm.machine';

const OPEN_DELAY_MS = 50;
const CLOSE_DELAY_MS = 200;

const content = (closeOnBackdrop: boolean): ConfirmDialogContent => ({
  title: 'Please confirm',
  message: 'Publish the page?',
  kind: 'info',
  confirmText: 'Yes',
  cancelText: 'No',
  closeOnBackdrop,
});

// Requests alternate between two ids, so a new request is always another caller's.
const model = createTestModel(confirmMachine, {
  events: (state) =>
    [true, false].map((closeOnBackdrop) => ({
      type: 'confirm.request' as const,
      id: state.context.request?.id === 'a' ? 'b' : 'a',
      content: content(closeOnBackdrop),
    })),
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('confirmMachine', () => {
  it.each(model.getShortestPaths().map((path) => [path.description, path] as const))('%s', async (_name, path) => {
    const actor = createActor(confirmMachine).start();
    let answers: ConfirmAnswer[] = [];
    actor.on('confirm.answered', (answer) => answers.push(answer));
    const send = ({ event }: { event: EventObject }) => actor.send(event as ConfirmEvent);
    // Nothing may happen a millisecond early.
    const waitFor = (ms: number, before: string) => {
      vi.advanceTimersByTime(ms - 1);
      expect(actor.getSnapshot().value).toBe(before);
      vi.advanceTimersByTime(1);
    };
    const answersTo = (id: string | undefined) => answers.filter((answer) => answer.id === id);
    const expectState = (value: string, context: unknown) => {
      expect(actor.getSnapshot().value).toBe(value);
      expect(actor.getSnapshot().context).toEqual(context);
    };

    await path.test({
      events: {
        'confirm.request': (step) => {
          // The model reuses two ids; in the app every request has its own, so an old answer is another caller's.
          const { id } = step.event as Extract<ConfirmEvent, { type: 'confirm.request' }>;
          answers = answers.filter((answer) => answer.id !== id);
          send(step);
        },
        'confirm.accept': send,
        'confirm.cancel': send,
        'confirm.backdrop': send,
        'confirm.show': () => waitFor(OPEN_DELAY_MS, 'opening'),
        'confirm.remove': () => waitFor(CLOSE_DELAY_MS, 'closing'),
      },
      states: {
        idle: (state) => expectState('idle', state.context),
        opening: (state) => {
          expectState('opening', state.context);
          expect(answersTo(state.context.request?.id)).toEqual([]);
        },
        open: (state) => {
          expectState('open', state.context);
          expect(answersTo(state.context.request?.id)).toEqual([]);
        },
        closing: (state) => {
          expectState('closing', state.context);
          // Answered exactly once: true on confirm; false on cancel or an allowed backdrop click.
          const { id = '', confirmed = null } = state.context.request ?? {};
          expect(answersTo(id)).toEqual([{ type: 'confirm.answered', id, confirmed }]);
        },
      },
    });
    actor.stop();
  });
});
