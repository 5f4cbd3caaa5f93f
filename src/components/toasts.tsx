import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { LucideIcon } from 'lucide-react';
// Icons by path: this file is in the first screen's chunk (see confirm-dialog.tsx).
import CircleCheck from 'lucide-react/icons/circle-check';
import CircleX from 'lucide-react/icons/circle-x';
import Info from 'lucide-react/icons/info';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import X from 'lucide-react/icons/x';
import type { ActorRefFrom } from 'xstate';
import type { ToastKind, toastMachine } from '../machines/toast.machine';
import styles from './toasts.module.css';

const ICONS: Record<ToastKind, LucideIcon> = { success: CircleCheck, error: CircleX, info: Info, warning: TriangleAlert };

/** Problems interrupt a screen reader; confirmations wait their turn. */
const URGENT: ReadonlySet<ToastKind> = new Set(['error', 'warning']);

export function Toasts({ actor }: { actor: ActorRefFrom<typeof toastMachine> }) {
  const { t } = useLingui();
  const toasts = useSelector(actor, (snapshot) => snapshot.context.toasts);

  return (
    <section className={styles.region} aria-label={t`Notifications`}>
      {toasts.map(({ id, kind, message, phase }) => {
        const Icon = ICONS[kind];
        return (
          <div
            key={id}
            role={URGENT.has(kind) ? 'alert' : 'status'}
            className={`${styles.toast} ${styles[kind]}`}
            data-phase={phase}
          >
            <Icon className={styles.icon} aria-hidden size={20} />
            <p className={styles.message}>{message}</p>
            <button
              type="button"
              className={styles.dismiss}
              aria-label={t`Dismiss notification`}
              onClick={() => actor.send({ type: 'toast.dismiss', id })}
            >
              <X aria-hidden size={18} />
            </button>
          </div>
        );
      })}
    </section>
  );
}
