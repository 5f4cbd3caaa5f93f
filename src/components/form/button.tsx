import type { ComponentProps } from 'react';
import styles from './form.module.css';

// ComponentProps includes `ref`, a plain prop since React 19 (the confirm dialog focuses its cancel button).
interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'danger';
  /** Disables the button and tells assistive technology the action is running. */
  busy?: boolean;
}

export function Button({ variant = 'primary', busy = false, disabled, className, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={[styles.button, styles[variant], className].filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}
