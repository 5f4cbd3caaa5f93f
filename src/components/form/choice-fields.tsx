import { useId } from 'react';
import type { SelectOption } from '../searchable-select';
import styles from './form.module.css';

interface CheckboxFieldProps {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
}

/** One yes/no, its whole label a tap target. */
export function CheckboxField({ label, name, checked, onChange, error }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.check} htmlFor={id}>
        <input id={id} type="checkbox" name={name} checked={checked} onChange={(event) => onChange(event.target.checked)} aria-invalid={error ? true : undefined} />
        <span>{label}</span>
      </label>
      {error && <p className={styles.error}>{error}</p>}
    </div>
  );
}

interface CheckboxGroupFieldProps {
  label: string;
  name: string;
  options: readonly SelectOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string | null;
}

/** Several of a list: a fieldset of checkboxes, chosen ones kept even while their options are not loaded. */
export function CheckboxGroupField({ label, name, options, value, onChange, error }: CheckboxGroupFieldProps) {
  const id = useId();
  const known = new Set(options.map((option) => option.value));
  const shown = [...options, ...value.filter((chosen) => !known.has(chosen)).map((chosen) => ({ value: chosen, label: chosen }))];
  const toggle = (option: string, on: boolean) => onChange(on ? [...value, option] : value.filter((chosen) => chosen !== option));
  return (
    <fieldset className={styles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={styles.label}>{label}</legend>
      <div className={styles.checks}>
        {shown.map((option) => (
          <label key={option.value} className={styles.check}>
            <input type="checkbox" name={name} value={option.value} checked={value.includes(option.value)} onChange={(event) => toggle(option.value, event.target.checked)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
