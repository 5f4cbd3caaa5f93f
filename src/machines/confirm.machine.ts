import { assign, emit, enqueueActions, setup } from 'xstate';

export type ConfirmKind = 'danger' | 'warning' | 'info';

/** What the dialog shows; the caller's defaults ("Yes" / "No", danger for deletes) are already applied. */
export interface ConfirmDialogContent {
  title: string;
  message: string;
  kind: ConfirmKind;
  confirmText: string;
  cancelText: string;
  closeOnBackdrop: boolean;
}

export interface ConfirmRequest {
  id: string;
  content: ConfirmDialogContent;
  /** The answer, once given. */
  confirmed: boolean | null;
}

export type ConfirmEvent =
  | { type: 'confirm.request'; id: string; content: ConfirmDialogContent }
  | { type: 'confirm.accept' }
  /** Cancel button, close button, Escape. */
  | { type: 'confirm.cancel' }
  | { type: 'confirm.backdrop' }
  /** Raised by the machine itself after the open and close delays. */
  | { type: 'confirm.show' }
  | { type: 'confirm.remove' };

export type ConfirmAnswer = { type: 'confirm.answered'; id: string; confirmed: boolean };

type ConfirmContext = { request: ConfirmRequest | null };

const confirm = setup({
  types: {} as { context: ConfirmContext; events: ConfirmEvent; emitted: ConfirmAnswer },
  delays: { openDelay: 50, closeDelay: 200 },
  actions: {
    answer: enqueueActions(({ context, enqueue }, confirmed: boolean) => {
      if (!context.request) return;
      enqueue.assign({ request: { ...context.request, confirmed } });
      enqueue.emit({ type: 'confirm.answered', id: context.request.id, confirmed });
    }),
    refuse: emit((_, { id }: { id: string }) => ({ type: 'confirm.answered' as const, id, confirmed: false })),
  },
  guards: {
    backdropCloses: ({ context }) => context.request?.content.closeOnBackdrop === true,
  },
});

/**
 * The app's confirmation dialog (spec §4): it appears 50 ms after a request and is removed 200 ms
 * after an answer. Answers are emitted as `confirm.answered`, so each caller can await its own.
 * One dialog at a time: a request while one is pending is answered "no" at once (a double click on
 * Delete must not queue a second question). Delays are raises, not `after`, for createTestModel.
 */
export const confirmMachine = confirm.createMachine({
  id: 'confirm',
  context: { request: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'confirm.request': 'opening' },
    },
    opening: {
      entry: [
        assign({ request: ({ event }) => (event.type === 'confirm.request' ? { id: event.id, content: event.content, confirmed: null } : null) }),
        confirm.raise({ type: 'confirm.show' }, { delay: 'openDelay' }),
      ],
      on: {
        'confirm.show': 'open',
        'confirm.request': { actions: { type: 'refuse', params: ({ event }) => ({ id: event.id }) } },
      },
    },
    open: {
      on: {
        'confirm.accept': { target: 'closing', actions: { type: 'answer', params: true } },
        'confirm.cancel': { target: 'closing', actions: { type: 'answer', params: false } },
        'confirm.backdrop': { guard: 'backdropCloses', target: 'closing', actions: { type: 'answer', params: false } },
        'confirm.request': { actions: { type: 'refuse', params: ({ event }) => ({ id: event.id }) } },
      },
    },
    closing: {
      entry: confirm.raise({ type: 'confirm.remove' }, { delay: 'closeDelay', id: 'remove' }),
      exit: confirm.cancel('remove'),
      on: {
        'confirm.remove': { target: 'idle', actions: assign({ request: null }) },
        // The last dialog is answered; the next one need not wait for its exit animation.
        'confirm.request': 'opening',
      },
    },
  },
});
