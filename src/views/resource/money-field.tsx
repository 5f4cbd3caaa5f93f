import type { FieldInputProps } from './field-kinds';
import type { Field } from './screen';
import { MoneyInput } from './service-fields';

/**
 * An amount in cents (a dish's price), typed in the currency's unit. Empty (a new record's, or
 * emptied) it is no amount: the form's check asks for one rather than saving a price nobody typed.
 */
export function MoneyField({ label, value, error, onChange }: FieldInputProps<Field & { kind: 'money' }>) {
  return (
    <MoneyInput
      label={label}
      value={typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : undefined}
      error={error}
      onChange={(amount) => onChange(amount ?? '')}
    />
  );
}
