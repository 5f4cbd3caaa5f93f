import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
// Icons by path: this file is in the first screen's chunk, where the package's index would pull in
// every icon any screen uses (scripts/boot-chunk.ts).
import Info from 'lucide-react/icons/info';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import X from 'lucide-react/icons/x';
import { useId, useLayoutEffect, useRef, type KeyboardEvent, type MouseEvent, type SyntheticEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { ConfirmDialogContent, confirmMachine, ConfirmEvent } from '../machines/confirm.machine';
import styles from './confirm-dialog.module.css';
import { Button } from './form/button';

type ConfirmActor = ActorRefFrom<typeof confirmMachine>;

/** Shows the confirmMachine's dialog while it is open and during its 200 ms exit. */
export function ConfirmDialog({ actor }: { actor: ConfirmActor }) {
  const shown = useSelector(actor, (snapshot) => snapshot.matches('open') || snapshot.matches('closing'));
  const closing = useSelector(actor, (snapshot) => snapshot.matches('closing'));
  const request = useSelector(actor, (snapshot) => snapshot.context.request);

  if (!shown || !request) return null;
  return <Dialog key={request.id} content={request.content} closing={closing} send={(event) => actor.send(event)} />;
}

interface DialogProps {
  content: ConfirmDialogContent;
  closing: boolean;
  send: (event: ConfirmEvent) => void;
}

function Dialog({ content, closing, send }: DialogProps) {
  const { t } = useLingui();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();
  const Icon = content.kind === 'info' ? Info : TriangleAlert;

  useLayoutEffect(() => {
    const element = dialog.current;
    element?.showModal();
    // The safe answer gets the focus, so Enter on a reflex does not delete anything.
    cancelButton.current?.focus();
    return () => element?.close();
  }, []);

  // The browser would close the dialog itself; the machine decides, so the answer is always recorded.
  const cancel = (event: SyntheticEvent) => {
    event.preventDefault();
    send({ type: 'confirm.cancel' });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') cancel(event);
  };
  // The dialog's own box is covered by the panel, so a click that lands on the dialog is on the backdrop.
  const onClick = (event: MouseEvent) => {
    if (event.target === event.currentTarget) send({ type: 'confirm.backdrop' });
  };

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      data-kind={content.kind}
      data-closing={closing || undefined}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={cancel}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <div className={styles.panel}>
        <header className={styles.header}>
          <Icon className={styles.icon} aria-hidden size={24} />
          <h2 id={titleId} className={styles.title}>
            {content.title}
          </h2>
          <button type="button" className={styles.close} aria-label={t`Close`} onClick={() => send({ type: 'confirm.cancel' })}>
            <X aria-hidden size={20} />
          </button>
        </header>
        <p id={messageId} className={styles.message}>
          {content.message}
        </p>
        <footer className={styles.actions}>
          <Button ref={cancelButton} variant="secondary" onClick={() => send({ type: 'confirm.cancel' })}>
            {content.cancelText}
          </Button>
          <Button onClick={() => send({ type: 'confirm.accept' })}>{content.confirmText}</Button>
        </footer>
      </div>
    </dialog>
  );
}
