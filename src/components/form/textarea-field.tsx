import { useId, type TextareaHTMLAttributes } from 'react';
import styles from './form.module.css';

interface TextareaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  /** Already translated; shown under the field and announced with it. */
  error?: string | null;
}

/** A labelled multi-line input with its error wired up for assistive technology. */
export function TextareaField({ label, error, ...textarea }: TextareaFieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;

  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={`${styles.input} ${styles.textarea}`}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        {...textarea}
      />
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
