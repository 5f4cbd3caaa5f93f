import { useLingui } from '@lingui/react/macro';
import { useId, type SelectHTMLAttributes } from 'react';
import type { SelectOption } from '../searchable-select';
import styles from './form.module.css';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  options: readonly SelectOption[];
  value: string;
  onChange: (value: string) => void;
  /** Already translated; shown under the field and announced with it. */
  error?: string | null;
}

/** A labelled native select (its own keyboard search and phone picker), with a "Choose…" entry while empty. */
export function SelectField({ label, options, value, onChange, error, ...select }: SelectFieldProps) {
  const { t } = useLingui();
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  // A value whose option is not (yet) loaded stays selectable rather than silently becoming empty.
  const known = value === '' || options.some((option) => option.value === value);

  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={`${styles.input} ${styles.select}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        {...select}
      >
        <option value="">{t`Choose…`}</option>
        {!known && <option value={value}>{value}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
