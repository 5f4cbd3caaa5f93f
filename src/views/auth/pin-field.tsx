import { useLingui } from '@lingui/react/macro';
import { TextField } from '../../components/form/text-field';
import styles from './auth.module.css';

interface PinFieldProps {
  value: string;
  onChange: (pin: string) => void;
  error: string | null;
}

/** The 6-digit PIN of a mail: numeric keyboard on phones, one-time-code autofill, digits only. */
export function PinField({ value, onChange, error }: PinFieldProps) {
  const { t } = useLingui();
  return (
    <TextField
      label={t`PIN`}
      name="pin"
      className={styles.pinField}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      // The page exists to take this one code, usually straight from the mail.
      autoFocus
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
      error={error}
    />
  );
}
