import { Trans, useLingui } from '@lingui/react/macro';
import { Copy } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/form/button';
import { useToast } from '../../machines/feedback';
import styles from '../resource/resource.module.css';

/** A value the server shows once and never again (an API key, a webhook's secret), what it is for, and a way to copy it. */
export function ShownOnce({ value, children }: { value: string; children: ReactNode }) {
  const { t } = useLingui();
  const toast = useToast();
  return (
    // Marked so the device never keeps a picture of it (app/snapshot.ts).
    <div className={styles.age} role="alert" data-shown-once>
      <p className={styles.problemText}>
        {children}
        <br />
        <code className={styles.secret}>{value}</code>
      </p>
      <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.success(t`Copied`))}>
        <Copy aria-hidden size={18} />
        <Trans>Copy</Trans>
      </Button>
    </div>
  );
}
