import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { confirmMachine, type ConfirmAnswer, type ConfirmDialogContent } from './confirm.machine';

const CONTENT: ConfirmDialogContent = {
  title: 'Please confirm',
  message: 'Delete it?',
  kind: 'danger',
  confirmText: 'Yes, Delete',
  cancelText: 'Cancel',
  closeOnBackdrop: false,
};

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const actor = createActor(confirmMachine).start();
  const answers: ConfirmAnswer[] = [];
  actor.on('confirm.answered', (answer) => answers.push(answer));
  return { actor, answers };
}

describe('confirmMachine', () => {
  it.each(['opening', 'open'])('answers a second request "no" at once while one is %s, and keeps the first', (phase) => {
    const { actor, answers } = start();
    actor.send({ type: 'confirm.request', id: 'first', content: CONTENT });
    if (phase === 'open') vi.advanceTimersByTime(50);

    actor.send({ type: 'confirm.request', id: 'second', content: CONTENT });
    expect(answers).toEqual([{ type: 'confirm.answered', id: 'second', confirmed: false }]);
    expect(actor.getSnapshot().context.request?.id).toBe('first');
  });

  it('ignores a backdrop click when the request does not allow it', () => {
    const { actor, answers } = start();
    actor.send({ type: 'confirm.request', id: 'first', content: CONTENT });
    vi.advanceTimersByTime(50);

    actor.send({ type: 'confirm.backdrop' });
    expect(actor.getSnapshot().value).toBe('open');
    expect(answers).toEqual([]);
  });

  it('opens the next request during the previous one’s exit without waiting for its removal', () => {
    const { actor } = start();
    actor.send({ type: 'confirm.request', id: 'first', content: CONTENT });
    vi.advanceTimersByTime(50);
    actor.send({ type: 'confirm.accept' });
    vi.advanceTimersByTime(100);

    actor.send({ type: 'confirm.request', id: 'second', content: CONTENT });
    vi.advanceTimersByTime(49);
    expect(actor.getSnapshot().value).toBe('opening');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.request?.id).toBe('second');
  });
});
