import type { ComponentType } from 'react';
import { lazyScreen } from '../../app/lazy-screen';
import { SelectField } from '../../components/form/select-field';
import { TextField } from '../../components/form/text-field';
import { TextareaField } from '../../components/form/textarea-field';
import type { Field } from './screen';
import type { OptionLists } from './use-option-lists';

/** What a form hands each field, whatever its kind. */
export interface FieldInputProps<F extends Field = Field> {
  spec: F;
  /** Translated. */
  label: string;
  value: unknown;
  error: string | null;
  options: OptionLists;
  onChange: (value: unknown) => void;
}

type Kinds = { [K in Field['kind']]: ComponentType<FieldInputProps<Field & { kind: K }>> };

/**
 * How each kind of field is edited: the form looks its fields up here. A kind that weighs (the
 * translations editor now, rich text later) is a chunk of its own, loaded when a form first
 * shows it (`preloadFieldKinds` asks as soon as the form knows its fields).
 */
export const FIELD_KINDS: Kinds = {
  text: ({ spec, label, value, error, onChange }) => (
    <TextField label={label} name={spec.name} value={String(value ?? '')} error={error} onChange={(event) => onChange(event.target.value)} />
  ),
  textarea: ({ spec, label, value, error, onChange }) => (
    <TextareaField label={label} name={spec.name} value={String(value ?? '')} error={error} onChange={(event) => onChange(event.target.value)} />
  ),
  select: ({ spec, label, value, error, options, onChange }) => (
    <SelectField label={label} name={spec.name} options={options[spec.source.resource.name] ?? []} value={String(value ?? '')} error={error} onChange={onChange} />
  ),
  translations: lazyScreen(() => import('./translations-field').then((m) => m.TranslationsField)),
};

/** Loads the chunks of the lazy kinds among `fields`; resolves when a form of them renders without waiting. */
export async function preloadFieldKinds(fields: readonly Field[]): Promise<void> {
  await Promise.all(fields.map((field) => (FIELD_KINDS[field.kind] as Partial<{ preload: () => Promise<unknown> }>).preload?.()));
}
