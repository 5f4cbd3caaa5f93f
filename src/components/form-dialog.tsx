import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import styles from './form-dialog.module.css';

interface FormDialogProps {
  title: string;
  /** Escape, the close button: the owner decides (it may ask about unsaved changes first). */
  onRequestClose: () => void;
  children: ReactNode;
}

/** A modal form on a native <dialog>: centred on wider screens, a bottom sheet on phones. Mount it to open it. */
export function FormDialog({ title, onRequestClose, children }: FormDialogProps) {
  const { t } = useLingui();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useLayoutEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  // The browser would close the dialog on Escape by itself; the owner decides instead.
  const cancel = (event: SyntheticEvent) => {
    event.preventDefault();
    onRequestClose();
  };
  // Chromium asks no close on Escape while the focus rests on a control disabled under it (a
  // switch that saves as it flips, busy until saved): the key itself closes then. Taken here, the
  // browser's own close request does not come as well; `cancel` stays for the phone's back gesture.
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') cancel(event);
  };

  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={titleId} onCancel={cancel} onKeyDown={escape}>
      <header className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <button type="button" className={styles.close} aria-label={t`Close`} onClick={onRequestClose}>
          <X aria-hidden size={20} />
        </button>
      </header>
      <div className={styles.body}>{children}</div>
    </dialog>
  );
}
