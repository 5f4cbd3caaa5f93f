import { t } from '@lingui/core/macro';
import { createActor } from 'xstate';
import { confirmMachine, type ConfirmKind } from './confirm.machine';
import { toastMachine, type ToastKind } from './toast.machine';

// One of each for the whole app (DESIGN §7): screens ask these, none builds its own; app/feedback.tsx renders them.
export const toastActor = createActor(toastMachine).start();
export const confirmActor = createActor(confirmMachine).start();

type Toaster = Record<ToastKind, (message: string) => void>;

const show = (kind: ToastKind) => (message: string) => toastActor.send({ type: 'toast.show', kind, message });

/** The app's toasts, for code outside React too. */
export const toast: Toaster = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') };

export function useToast(): Toaster {
  return toast;
}

export interface ConfirmOptions {
  message: string;
  title?: string;
  type?: ConfirmKind;
  confirmText?: string;
  cancelText?: string;
  /** Whether a click beside the dialog answers "no"; it does unless turned off. */
  closeOnBackdrop?: boolean;
}

let requests = 0;

function confirm({ message, title, type = 'warning', confirmText, cancelText, closeOnBackdrop = true }: ConfirmOptions): Promise<boolean> {
  const id = `confirm-${++requests}`;
  const content = {
    message,
    kind: type,
    title: title ?? t`Please confirm`,
    confirmText: confirmText ?? t`Yes`,
    cancelText: cancelText ?? t`No`,
    closeOnBackdrop,
  };
  return new Promise((resolve) => {
    const subscription = confirmActor.on('confirm.answered', (answer) => {
      if (answer.id !== id) return;
      subscription.unsubscribe();
      resolve(answer.confirmed);
    });
    confirmActor.send({ type: 'confirm.request', id, content });
  });
}

/** Spec §9: the delete question and its buttons. */
function confirmDelete(item: string): Promise<boolean> {
  return confirm({
    type: 'danger',
    title: t`Confirm deletion`,
    message: t`Are you sure you want to delete ${item}? This action cannot be undone.`,
    confirmText: t`Yes, Delete`,
    cancelText: t`Cancel`,
  });
}

const confirmApi = { confirm, confirmDelete };

export function useConfirm(): typeof confirmApi {
  return confirmApi;
}
