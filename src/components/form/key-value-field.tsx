import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from './button';
import styles from './form.module.css';

interface KeyValueFieldProps {
  label: string;
  keyLabel: string;
  valueLabel: string;
  value: Readonly<Record<string, string>>;
  onChange: (value: Record<string, string>) => void;
  /** Already translated; shown under the field. */
  error?: string | null;
}

/**
 * A map of short keys to texts: every entry's text is editable in place; a key is added with its
 * text below and removed with its button. Keys never change in place, so typing never merges entries.
 */
export function KeyValueField({ label, keyLabel, valueLabel, value, onChange, error }: KeyValueFieldProps) {
  const { t } = useLingui();
  const id = useId();
  const [newKey, setNewKey] = useState('');
  const [newValue, setNewValue] = useState('');
  const key = newKey.trim();
  const taken = key !== '' && key in value;

  function add() {
    if (!key || taken) return;
    onChange({ ...value, [key]: newValue });
    setNewKey('');
    setNewValue('');
  }

  // Enter adds the entry rather than submitting the whole form.
  const onEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  const remove = (name: string) => onChange(Object.fromEntries(Object.entries(value).filter(([entry]) => entry !== name)));

  return (
    <fieldset className={styles.keyValue} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={styles.label}>{label}</legend>
      {Object.keys(value).length === 0 && (
        <p className={styles.hint}>
          <Trans>None yet.</Trans>
        </p>
      )}
      {Object.entries(value).map(([name, text]) => (
        <div key={name} className={styles.keyValueRow}>
          <span className={styles.key}>{name}</span>
          <input
            className={styles.input}
            aria-label={`${valueLabel} (${name})`}
            value={text}
            onChange={(event) => onChange({ ...value, [name]: event.target.value })}
          />
          <button type="button" className={styles.iconButton} aria-label={t`Remove ${name}`} onClick={() => remove(name)}>
            <Trash2 aria-hidden size={18} />
          </button>
        </div>
      ))}
      <div className={styles.keyValueAdd}>
        <label className={`${styles.addField} ${styles.keyInput}`}>
          <span className={styles.hint}>{keyLabel}</span>
          <input
            className={styles.input}
            autoCapitalize="none"
            spellCheck={false}
            value={newKey}
            onChange={(event) => setNewKey(event.target.value)}
            onKeyDown={onEnter}
            aria-invalid={taken || undefined}
          />
        </label>
        <label className={styles.addField}>
          <span className={styles.hint}>{valueLabel}</span>
          <input className={styles.input} value={newValue} onChange={(event) => setNewValue(event.target.value)} onKeyDown={onEnter} />
        </label>
        <Button variant="secondary" onClick={add} disabled={!key || taken}>
          <Plus aria-hidden size={18} />
          <Trans>Add</Trans>
        </Button>
      </div>
      {taken && (
        <p className={styles.error}>
          <Trans>{key} is already in the list.</Trans>
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
