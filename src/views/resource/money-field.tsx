import type { FieldInputProps } from './field-kinds';
import { MoneyInput } from './service-fields';

/**
 * An amount in cents (a dish's price), typed in the currency's unit. Empty (a new record's, or
 * emptied) it is no amount: the form's check asks for one rather than saving a price nobody typed.
 * A form's `money` field, and any editor of one amount (a dish's quick edit).
 */
export function MoneyField({ label, value, error, onChange }: Pick<FieldInputProps, 'label' | 'value' | 'error' | 'onChange'>) {
  return (
    <MoneyInput
      label={label}
      value={typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : undefined}
      error={error}
      onChange={(amount) => onChange(amount ?? '')}
    />
  );
}
