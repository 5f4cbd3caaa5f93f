import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Suspense, useId, useState, type ComponentType } from 'react';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { FIELD_KINDS, type FieldInputProps } from './field-kinds';
import { blankValues, type Field } from './screen';
import styles from './records-field.module.css';

// A list of small records as one field (a contact form's fields): each entry is edited with the
// screen's `item` fields, through the same kinds as any form; entries are added at the end,
// removed, and moved by buttons (no dragging: they hold inputs, and a phone scrolls over them).

type Entry = Record<string, unknown>;

const swap = <T,>(list: readonly T[], a: number, b: number) => list.map((item, at) => (at === a ? list[b]! : at === b ? list[a]! : item));

let serial = 0;
/** A key for an entry: it keeps it while the entry moves, so its inputs (and a focused button) move with it. */
const fresh = () => `entry-${serial++}`;

export function RecordsField({ spec, label, value, error, options, onSearch, onChange }: FieldInputProps<Field & { kind: 'records' }>) {
  const { t, i18n } = useLingui();
  const id = useId();
  const entries = Array.isArray(value) ? (value as Entry[]) : [];
  const [keys, setKeys] = useState<string[]>(() => entries.map(fresh));
  // Entries from elsewhere (the record loaded, theirs taken): keys for them anew.
  if (keys.length !== entries.length) setKeys(entries.map(fresh));

  const change = (next: Entry[], nextKeys: string[]) => {
    setKeys(nextKeys);
    onChange(next);
  };
  const move = (index: number, by: -1 | 1) => change(swap(entries, index, index + by), swap(keys, index, index + by));
  const remove = (index: number) =>
    change(
      entries.filter((_, at) => at !== index),
      keys.filter((_, at) => at !== index),
    );
  const add = () => change([...entries, blankValues(spec.item)], [...keys, fresh()]);
  const set = (index: number, name: string, next: unknown) =>
    change(
      entries.map((entry, at) => (at === index ? { ...entry, [name]: next } : entry)),
      keys,
    );

  return (
    <fieldset className={formStyles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={formStyles.label}>{label}</legend>
      {entries.length === 0 && (
        <p className={formStyles.hint}>
          <Trans>None yet.</Trans>
        </p>
      )}
      <ol className={styles.list}>
        {entries.map((entry, index) => {
          const number = index + 1;
          const name = String(entry[spec.itemTitle] ?? '').trim() || t`Entry ${number}`;
          return (
            <li key={keys[index]}>
              <fieldset className={styles.entry}>
                <legend className={styles.title}>{name}</legend>
                <div className={styles.fields}>
                  {spec.item.map((sub) => {
                    const Input = FIELD_KINDS[sub.kind] as ComponentType<FieldInputProps>;
                    return (
                      <Suspense key={sub.name} fallback={<p className={formStyles.hint}>{i18n._(sub.label)}…</p>}>
                        <Input
                          spec={{ ...sub, name: `${spec.name}.${index}.${sub.name}` }}
                          label={i18n._(sub.label)}
                          value={entry[sub.name]}
                          error={null}
                          options={options}
                          onSearch={onSearch}
                          onChange={(next) => set(index, sub.name, next)}
                        />
                      </Suspense>
                    );
                  })}
                </div>
                <div className={styles.actions}>
                  <Button variant="secondary" aria-label={t`Move ${name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                    <ArrowUp aria-hidden size={18} />
                  </Button>
                  <Button variant="secondary" aria-label={t`Move ${name} down`} disabled={index === entries.length - 1} onClick={() => move(index, 1)}>
                    <ArrowDown aria-hidden size={18} />
                  </Button>
                  <Button variant="secondary" onClick={() => remove(index)}>
                    <Trash2 aria-hidden size={18} />
                    {t`Remove ${name}`}
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <Button variant="secondary" className={styles.add} onClick={add}>
        <Plus aria-hidden size={18} />
        {i18n._(spec.add)}
      </Button>
      {error && (
        <p id={`${id}-error`} className={formStyles.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
