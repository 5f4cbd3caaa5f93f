import { useLingui } from '@lingui/react';
import { useState, type ComponentType } from 'react';
import { lazyScreen } from '../../components/lazy-screen';
import { CheckboxField, CheckboxGroupField } from '../../components/form/choice-fields';
import { SelectField } from '../../components/form/select-field';
import formStyles from '../../components/form/form.module.css';
import { SearchableSelect } from '../../components/searchable-select';
import { TextField } from '../../components/form/text-field';
import { TextareaField } from '../../components/form/textarea-field';
import { DatetimeField } from './datetime-field';
import { ChoiceMapField, FlagsField } from './map-fields';
import type { Field } from './screen';
import type { Option, OptionLists } from './use-option-lists';

/** What a form hands each field, whatever its kind. */
export interface FieldInputProps<F extends Field = Field> {
  spec: F;
  /** Translated. */
  label: string;
  value: unknown;
  error: string | null;
  options: OptionLists;
  /** Asks the server for the choices of a resource that match what was typed (searchable selects). */
  onSearch?: (resource: string, text: string) => void;
  onChange: (value: unknown) => void;
  /** Told while the field takes its value in (a photo kept or uploaded): the form is not saved meanwhile. */
  onBusy?: (busy: boolean) => void;
}

type Props<K extends Field['kind']> = FieldInputProps<Field & { kind: K }>;

/**
 * A reference field's choices: the records to choose from, and each chosen one by its name even
 * when it is none of them (past the first page, or "unknown"), or an ellipsis while it is looked
 * up; never its id.
 */
function choicesOf(options: readonly Option[] = [], chosen: readonly string[]): Option[] {
  const offered = options.filter((option) => !option.missing || chosen.includes(option.value));
  const listed = new Set(offered.map((option) => option.value));
  return [...chosen.filter((id) => id !== '' && !listed.has(id)).map((id) => ({ value: id, label: '…' })), ...offered];
}

/** A record of thousands (an owner): a dropdown that searches the server as one types. */
function SearchableSelectField({ spec, label, value, error, options, onSearch, onChange }: Props<'select'>) {
  const [open, setOpen] = useState(false);
  const name = spec.source.resource.name;
  return (
    <div className={formStyles.field}>
      <SearchableSelect
        label={label}
        options={choicesOf(options[name], typeof value === 'string' ? [value] : [])}
        value={typeof value === 'string' && value ? value : null}
        open={open}
        onOpenChange={setOpen}
        onSearch={(text) => onSearch?.(name, text)}
        onChange={(next) => onChange(next ?? (spec.optional ? null : ''))}
        empty="choose"
      />
      {error && <p className={formStyles.error}>{error}</p>}
    </div>
  );
}

/** Text, email and web addresses: one input of the kind's type, with the field's hint under it. */
function TextKindField({ spec, label, value, error, onChange }: Props<'text' | 'email' | 'url' | 'password'>) {
  const { i18n } = useLingui();
  const kind = { text: {}, email: { type: 'email', autoComplete: 'off' }, url: { type: 'url', inputMode: 'url' }, password: { type: 'password', autoComplete: 'new-password' } } as const;
  return (
    <TextField
      label={label}
      name={spec.name}
      {...kind[spec.kind]}
      value={String(value ?? '')}
      hint={spec.hint ? i18n._(spec.hint) : undefined}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** Words separated by commas (SEO keywords), kept as a list; only leading spaces go while typing, so "wood oven" stays one keyword of two words. */
function TagsField({ spec, label, value, error, onChange }: Props<'tags'>) {
  const { i18n } = useLingui();
  return (
    <TextField
      label={label}
      name={spec.name}
      value={Array.isArray(value) ? value.join(', ') : ''}
      hint={spec.hint ? i18n._(spec.hint) : undefined}
      error={error}
      onChange={(event) => onChange(event.target.value.trim() === '' ? [] : event.target.value.split(',').map((part) => part.trimStart()))}
    />
  );
}

function ChoiceField({ spec, label, value, error, onChange }: Props<'choice'>) {
  const { i18n } = useLingui();
  const options = spec.choices.map((choice) => ({ value: choice.value, label: i18n._(choice.label) }));
  return <SelectField label={label} name={spec.name} options={options} value={String(value ?? '')} error={error} onChange={onChange} required />;
}

type Kinds = { [K in Field['kind']]: ComponentType<FieldInputProps<Field & { kind: K }>> };

/**
 * How each kind of field is edited: the form looks its fields up here. A kind that weighs (the
 * translations editor now, rich text later) is a chunk of its own, loaded when a form first
 * shows it (`preloadFieldKinds` asks as soon as the form knows its fields).
 */
export const FIELD_KINDS: Kinds = {
  text: TextKindField,
  textarea: ({ spec, label, value, error, onChange }) => (
    <TextareaField label={label} name={spec.name} value={String(value ?? '')} error={error} onChange={(event) => onChange(event.target.value)} />
  ),
  email: TextKindField,
  url: TextKindField,
  password: TextKindField,
  select: (props) =>
    props.spec.searchable ? (
      <SearchableSelectField {...props} />
    ) : (
      <SelectField
        label={props.label}
        name={props.spec.name}
        options={choicesOf(props.options[props.spec.source.resource.name], [String(props.value ?? '')])}
        value={String(props.value ?? '')}
        error={props.error}
        // An optional reference left empty is none (null), not an id.
        onChange={(next) => props.onChange(next === '' && props.spec.optional ? null : next)}
      />
    ),
  picture: lazyScreen(() => import('./picture-field').then((m) => m.PictureField)),
  references: ({ spec, label, value, error, options, onChange }) => (
    <CheckboxGroupField
      label={label}
      name={spec.name}
      options={choicesOf(options[spec.source.resource.name], Array.isArray(value) ? (value as string[]) : [])}
      value={Array.isArray(value) ? (value as string[]) : []}
      error={error}
      onChange={onChange}
    />
  ),
  choice: ChoiceField,
  checkbox: ({ spec, label, value, error, onChange }) => <CheckboxField label={label} name={spec.name} checked={value === true} error={error} onChange={onChange} />,
  translations: lazyScreen(() => import('./translations-field').then((m) => m.TranslationsField)),
  // Digits become a number; anything else stays text, for the form's check to refuse.
  integer: ({ spec, label, value, error, onChange }) => (
    <TextField
      label={label}
      name={spec.name}
      inputMode="numeric"
      value={String(value ?? '')}
      error={error}
      onChange={(event) => onChange(/^\s*\d{1,9}\s*$/.test(event.target.value) ? Number(event.target.value) : event.target.value)}
    />
  ),
  tags: TagsField,
  richText: lazyScreen(() => import('./rich-text-field').then((m) => m.RichTextField)),
  datetime: DatetimeField,
  money: lazyScreen(() => import('./money-field').then((m) => m.MoneyField)),
  prices: lazyScreen(() => import('./service-fields').then((m) => m.PricesField)),
  serviceFeatures: lazyScreen(() => import('./service-fields').then((m) => m.ServiceFeaturesField)),
  serviceModules: lazyScreen(() => import('./service-fields').then((m) => m.ServiceModulesField)),
  records: lazyScreen(() => import('./records-field').then((m) => m.RecordsField)),
  flags: FlagsField,
  choiceMap: ChoiceMapField,
};

/** Loads the chunks of the lazy kinds among `fields`; resolves when a form of them renders without waiting. */
export async function preloadFieldKinds(fields: readonly Field[]): Promise<void> {
  await Promise.all(fields.map((field) => (FIELD_KINDS[field.kind] as Partial<{ preload: () => Promise<unknown> }>).preload?.()));
}
