import { useLingui } from '@lingui/react';
import { TextField } from '../../components/form/text-field';
import type { FieldInputProps } from './field-kinds';
import type { Field } from './screen';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO moment as a `datetime-local` input shows it: the device's wall-clock time, to the minute. */
export function localInputValue(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What a `datetime-local` input holds, as the moment it means here (ISO 8601, UTC); empty is none. */
export function fromLocalInput(local: string): string | null {
  if (local === '') return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** A date and time picked in the device's time zone (a post's publication), kept as an ISO moment or null. */
export function DatetimeField({ spec, label, value, error, onChange }: FieldInputProps<Field & { kind: 'datetime' }>) {
  const { i18n } = useLingui();
  return (
    <TextField
      label={label}
      name={spec.name}
      type="datetime-local"
      value={localInputValue(value)}
      hint={spec.hint ? i18n._(spec.hint) : undefined}
      error={error}
      onChange={(event) => onChange(fromLocalInput(event.target.value))}
    />
  );
}
