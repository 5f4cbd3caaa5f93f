import { assign, enqueueActions, setup } from 'xstate';

export const TOAST_KINDS = ['success', 'error', 'info', 'warning'] as const;
export type ToastKind = (typeof TOAST_KINDS)[number];

export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
  /** Fading toasts are on their way out: still shown, no longer dismissable. */
  phase: 'visible' | 'fading';
}

export type ToastEvent =
  | { type: 'toast.show'; kind: ToastKind; message: string }
  | { type: 'toast.dismiss'; id: string }
  /** Raised by the machine itself when a toast's time is up. */
  | { type: 'toast.fade'; id: string }
  | { type: 'toast.remove'; id: string };

const fadeTimer = (id: string) => `fade:${id}`;

function hasToast(toasts: Toast[], id: string, phase: Toast['phase']): boolean {
  return toasts.some((toast) => toast.id === id && toast.phase === phase);
}

/**
 * The app's toasts (spec §4): each one is visible for 5000 ms, then fades for 300 ms and is removed;
 * dismissing it starts the fade at once. Timers are delayed raises rather than `after`, one per toast,
 * which also keeps the machine acceptable to @xstate/graph's createTestModel.
 */
export const toastMachine = setup({
  types: {} as { context: { toasts: Toast[]; nextId: number }; events: ToastEvent },
  delays: { visibleFor: 5000, fadeFor: 300 },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1 },
  on: {
    'toast.show': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const id = `toast-${context.nextId}`;
        enqueue.assign({
          toasts: [...context.toasts, { id, kind: event.kind, message: event.message, phase: 'visible' }],
          nextId: context.nextId + 1,
        });
        enqueue.raise({ type: 'toast.fade', id }, { id: fadeTimer(id), delay: 'visibleFor' });
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
        enqueue.assign({ toasts: context.toasts.map((toast) => (toast.id === event.id ? { ...toast, phase: 'fading' } : toast)) });
        enqueue.raise({ type: 'toast.remove', id: event.id }, { delay: 'fadeFor' });
      }),
    },
    'toast.remove': {
      guard: ({ context, event }) => hasToast(context.toasts, event.id, 'fading'),
      actions: assign({ toasts: ({ context, event }) => context.toasts.filter((toast) => toast.id !== event.id) }),
    },
  },
});
