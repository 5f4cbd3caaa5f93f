import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import styles from './resource.module.css';

/** What a screen, or a part of one, shows while its data is on its way: one wording and look, announced as busy. */
export function Loading({ className, children }: { className?: string; children?: ReactNode }) {
  return (
    <p className={className ? `${styles.muted} ${className}` : styles.muted} aria-busy="true">
      {children ?? <Trans>Loading…</Trans>}
    </p>
  );
}
