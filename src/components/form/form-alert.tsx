import type { ReactNode } from 'react';
import styles from './form.module.css';

/** A form-level error, announced as soon as it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p className={styles.alert} role="alert">
      {children}
    </p>
  );
}
