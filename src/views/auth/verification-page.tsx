import { Trans } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useAuth } from '../../machines/auth';
import { readPendingUser } from '../../api/session';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { VerifyPinBody } from '../../contract/auth';
import { AuthLayout } from './auth-layout';
import styles from './auth.module.css';
import { PinField } from './pin-field';
import { z } from 'zod/mini';

const PinOnly = z.pick(VerifyPinBody, { pin: true });

/** The PIN step of sign-in; the route guard sends the user home once the session is verified. */
export function VerificationPage() {
  const auth = useAuth();
  const [, navigate] = useLocation();
  const [pin, setPin] = useState('');
  const { check, errorOf } = useFieldErrors(auth.fieldErrors);
  const account = readPendingUser()?.emailOrUsername ?? '';
  const busy = auth.status === 'verifying';

  function submit(event: FormEvent) {
    event.preventDefault();
    const valid = check(PinOnly, { pin });
    if (valid) auth.verifyPin(valid.pin);
  }

  function backToLogin() {
    auth.cancel();
    navigate('/login', { replace: true });
  }

  return (
    <AuthLayout
      title={<Trans>Enter your PIN</Trans>}
      footer={
        <button type="button" className={styles.linkButton} onClick={backToLogin}>
          <Trans>Back to login</Trans>
        </button>
      }
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.intro}>
          <Trans>We have sent a 6-digit PIN to the email address of {account}.</Trans>
        </p>
        {auth.error && <FormAlert>{auth.error}</FormAlert>}
        <PinField value={pin} onChange={setPin} error={errorOf('pin')} />
        <Button type="submit" busy={busy}>
          {busy ? <Trans>Verifying…</Trans> : <Trans>Verify</Trans>}
        </Button>
      </form>
    </AuthLayout>
  );
}
