import { useLingui } from '@lingui/react/macro';
import { KeyValueField } from '../../components/form/key-value-field';
import type { FieldInputProps } from './field-kinds';
import type { Field } from './screen';

type Translations = Record<string, { name: string }>;

/** `{ code: { name } }` edited as a list of language codes and names (spec §3, a language's `content`). */
export function TranslationsField({ label, value, error, onChange }: FieldInputProps<Field & { kind: 'translations' }>) {
  const { t } = useLingui();
  const entries = (value ?? {}) as Translations;
  return (
    <KeyValueField
      label={label}
      keyLabel={t`Language code`}
      valueLabel={t`Translated name`}
      value={Object.fromEntries(Object.entries(entries).map(([code, entry]) => [code, entry.name]))}
      onChange={(next) => onChange(Object.fromEntries(Object.entries(next).map(([code, name]) => [code, { name }])))}
      error={error}
    />
  );
}
