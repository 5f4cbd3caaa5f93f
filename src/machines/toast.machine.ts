import { assign, enqueueActions, setup } from 'xstate';

export const TOAST_KINDS = ['success', 'error', 'info', 'warning'] as const;
export type ToastKind = (typeof TOAST_KINDS)[number];

export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
  /** Fading toasts are on their way out: still shown, no longer dismissable. */
  phase: 'visible' | 'fading';
  /** Shown within the last second: what led to a navigation ("Saved", then back to the list), which it survives. */
  fresh: boolean;
}

export type ToastEvent =
  | { type: 'toast.show'; kind: ToastKind; message: string }
  | { type: 'toast.dismiss'; id: string }
  /** The person went to another page: toasts about the page left go. */
  | { type: 'toast.navigate' }
  /** Raised by the machine itself when a toast is no longer fresh, and when its time is up. */
  | { type: 'toast.settle'; id: string }
  | { type: 'toast.fade'; id: string }
  | { type: 'toast.remove'; id: string };

const fadeTimer = (id: string) => `fade:${id}`;
const settleTimer = (id: string) => `settle:${id}`;

function hasToast(toasts: Toast[], id: string, phase: Toast['phase']): boolean {
  return toasts.some((toast) => toast.id === id && toast.phase === phase);
}

/**
 * The app's toasts (spec §4): each one is visible for 5000 ms, then fades for 300 ms and is removed;
 * dismissing it starts the fade at once, and so does leaving the page, unless the toast came with
 * the move (a save's "Saved" as its form goes back to the list). Timers are delayed raises rather
 * than `after`, one per toast, which also keeps the machine acceptable to @xstate/graph's createTestModel.
 */
export const toastMachine = setup({
  types: {} as { context: { toasts: Toast[]; nextId: number }; events: ToastEvent },
  delays: { visibleFor: 5000, fadeFor: 300, freshFor: 1000 },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1 },
  on: {
    'toast.show': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const id = `toast-${context.nextId}`;
        enqueue.assign({
          toasts: [...context.toasts, { id, kind: event.kind, message: event.message, phase: 'visible', fresh: true }],
          nextId: context.nextId + 1,
        });
        enqueue.raise({ type: 'toast.settle', id }, { id: settleTimer(id), delay: 'freshFor' });
        enqueue.raise({ type: 'toast.fade', id }, { id: fadeTimer(id), delay: 'visibleFor' });
      }),
    },
    'toast.settle': {
      guard: ({ context, event }) => context.toasts.some((toast) => toast.id === event.id && toast.fresh),
      actions: assign({ toasts: ({ context, event }) => context.toasts.map((toast) => (toast.id === event.id ? { ...toast, fresh: false } : toast)) }),
    },
    'toast.navigate': {
      actions: enqueueActions(({ context, enqueue }) => {
        for (const toast of context.toasts) {
          if (toast.phase !== 'visible' || toast.fresh) continue;
          enqueue.cancel(fadeTimer(toast.id));
          enqueue.raise({ type: 'toast.fade', id: toast.id });
        }
      }),
    },
    'toast.dismiss': {
      guard: ({ context, event }) => hasToast(context.toasts, event.id, 'visible'),
      actions: enqueueActions(({ event, enqueue }) => {
        enqueue.cancel(fadeTimer(event.id));
        enqueue.raise({ type: 'toast.fade', id: event.id });
      }),
    },
    'toast.fade': {
      guard: ({ context, event }) => hasToast(context.toasts, event.id, 'visible'),
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.cancel(settleTimer(event.id));
        enqueue.assign({ toasts: context.toasts.map((toast) => (toast.id === event.id ? { ...toast, phase: 'fading', fresh: false } : toast)) });
        enqueue.raise({ type: 'toast.remove', id: event.id }, { delay: 'fadeFor' });
      }),
    },
    'toast.remove': {
      guard: ({ context, event }) => hasToast(context.toasts, event.id, 'fading'),
      actions: assign({ toasts: ({ context, event }) => context.toasts.filter((toast) => toast.id !== event.id) }),
    },
  },
});
