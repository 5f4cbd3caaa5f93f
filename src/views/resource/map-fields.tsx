import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { CheckboxGroupField } from '../../components/form/choice-fields';
import formStyles from '../../components/form/form.module.css';
import type { FieldInputProps } from './field-kinds';
import styles from './map-fields.module.css';
import type { Field } from './screen';

// Fields whose value is one map of several keys (a team role's flags, its level per CMS module):
// each key is one control, and a change hands on the whole map.

const mapOf = <T,>(value: unknown) => (value && typeof value === 'object' ? (value as Record<string, T>) : {});

/** A yes or no per choice: checkboxes, the whole map handed on with every key set. */
export function FlagsField({ spec, label, value, error, onChange }: FieldInputProps<Field & { kind: 'flags' }>) {
  const { i18n } = useLingui();
  const flags = mapOf<boolean>(value);
  return (
    <CheckboxGroupField
      label={label}
      name={spec.name}
      options={spec.choices.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }))}
      value={spec.choices.filter((choice) => flags[choice.value] === true).map((choice) => choice.value)}
      error={error}
      onChange={(on) => onChange(Object.fromEntries(spec.choices.map((choice) => [choice.value, on.includes(choice.value)])))}
    />
  );
}

/** One choice per key: a labelled select per key, side by side where there is room, one under another on a phone. */
export function ChoiceMapField({ spec, label, value, error, onChange }: FieldInputProps<Field & { kind: 'choiceMap' }>) {
  const { i18n } = useLingui();
  const id = useId();
  const chosen = mapOf<string>(value);
  const first = spec.choices[0]?.value ?? '';
  // Keys the map lacks show (and are sent as) the first choice, so the whole map is always explicit.
  const change = (key: string, next: string) => onChange({ ...Object.fromEntries(spec.keys.map((one) => [one.value, chosen[one.value] ?? first])), [key]: next });
  return (
    <fieldset className={formStyles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={formStyles.label}>{label}</legend>
      <div className={styles.rows}>
        {spec.keys.map((key) => (
          <div key={key.value} className={styles.row}>
            <label htmlFor={`${id}-${key.value}`}>{i18n._(key.label)}</label>
            <select
              id={`${id}-${key.value}`}
              name={`${spec.name}.${key.value}`}
              className={`${formStyles.input} ${formStyles.select}`}
              value={chosen[key.value] ?? first}
              onChange={(event) => change(key.value, event.target.value)}
            >
              {spec.choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {i18n._(choice.label)}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className={formStyles.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
