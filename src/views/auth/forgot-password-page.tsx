import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../../machines/auth';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { ForgotPasswordBody, VerifyResetPinBody } from '../../contract/auth';
import { AuthLayout } from './auth-layout';
import styles from './auth.module.css';
import { PinField } from './pin-field';
import { mailedPinEmail, useFreshStart, useMailedPin, useStatusChange } from './auth-flow';
import { z } from 'zod/mini';

const PinOnly = z.pick(VerifyResetPinBody, { pin: true });

/** Password reset, first half: the email, then the PIN mailed to it; the new password follows on /reset-password. */
export function ForgotPasswordPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [pin, setPin] = useState('');
  const { check, errorOf } = useFieldErrors(auth.fieldErrors);
  const pinStep = auth.status === 'resetAwaitingPin' || auth.status === 'resetVerifying';
  useFreshStart();
  useStatusChange(auth.status, 'resetAwaitingPassword', () => navigate('/reset-password'));
  useMailedPin(auth.resumeReset);

  function requestPin(event: FormEvent) {
    event.preventDefault();
    const body = check(ForgotPasswordBody, { email });
    if (body) auth.requestReset(body.email);
  }

  function verifyPin(event: FormEvent) {
    event.preventDefault();
    const body = check(PinOnly, { pin });
    if (body) auth.verifyResetPin(body.pin);
  }

  const footer = (
    <Link href="/login" className={styles.link}>
      <Trans>Back to login</Trans>
    </Link>
  );

  if (pinStep) {
    const resetEmail = auth.resetEmail ?? email;
    const invited = mailedPinEmail() === resetEmail;
    const busy = auth.status === 'resetVerifying';
    return (
      <AuthLayout title={<Trans>Enter your PIN</Trans>} footer={footer}>
        <form className={styles.form} onSubmit={verifyPin} noValidate>
          <p className={styles.intro} role="status">
            {invited ? (
              <Trans>Enter the 6-digit PIN from the mail to {resetEmail}, then choose your password.</Trans>
            ) : (
              <Trans>If an account uses {resetEmail}, we have sent a 6-digit PIN to it.</Trans>
            )}
          </p>
          {auth.error && <FormAlert>{auth.error}</FormAlert>}
          <PinField value={pin} onChange={setPin} error={errorOf('pin')} />
          <Button type="submit" busy={busy}>
            {busy ? <Trans>Verifying…</Trans> : <Trans>Continue</Trans>}
          </Button>
          <button type="button" className={styles.linkButton} onClick={auth.cancel}>
            <Trans>Use another email address</Trans>
          </button>
        </form>
      </AuthLayout>
    );
  }

  const busy = auth.status === 'resetRequesting';
  return (
    <AuthLayout title={<Trans>Forgot password</Trans>} footer={footer}>
      <form className={styles.form} onSubmit={requestPin} noValidate>
        <p className={styles.intro}>
          <Trans>Enter the email address of your account. We will send you a PIN to reset your password.</Trans>
        </p>
        {auth.error && <FormAlert>{auth.error}</FormAlert>}
        <TextField
          label={t`Email`}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errorOf('email')}
        />
        <Button type="submit" busy={busy}>
          {busy ? <Trans>Sending…</Trans> : <Trans>Send PIN</Trans>}
        </Button>
      </form>
    </AuthLayout>
  );
}
