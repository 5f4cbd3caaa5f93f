import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../../machines/auth';
import { useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { messages } from '../../contract/messages';
import { NewPasswordForm } from './password-confirmation';
import { AuthLayout } from './auth-layout';
import styles from './auth.module.css';
import { useStatusChange } from './auth-flow';

/** Password reset, second half: the new password for the PIN verified on /forgot-password. */
export function ResetPasswordPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ newPassword: '', confirmPassword: '' });
  const { check, errorOf } = useFieldErrors(auth.fieldErrors);
  const ready = auth.status === 'resetAwaitingPassword' || auth.status === 'resetSubmitting';
  const busy = auth.status === 'resetSubmitting';

  useStatusChange(auth.status, 'resetDone', () => {
    toast.success(i18n._(messages.passwordResetDone));
    navigate('/login', { replace: true });
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = check(NewPasswordForm, values);
    if (body) auth.resetPassword(body.newPassword);
  }

  const footer = (
    <Link href="/forgot-password" className={styles.link}>
      <Trans>Request a new PIN</Trans>
    </Link>
  );

  if (!ready) {
    return (
      <AuthLayout title={<Trans>Reset password</Trans>} footer={footer}>
        <p className={styles.intro}>
          <Trans>To choose a new password, first confirm your email address with a PIN.</Trans>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={<Trans>Choose a new password</Trans>} footer={footer}>
      <form className={styles.form} onSubmit={submit} noValidate>
        {auth.error && <FormAlert>{auth.error}</FormAlert>}
        <TextField
          label={t`New password`}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint={t`At least 8 characters`}
          value={values.newPassword}
          onChange={(event) => setValues({ ...values, newPassword: event.target.value })}
          error={errorOf('newPassword')}
        />
        <TextField
          label={t`Confirm new password`}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => setValues({ ...values, confirmPassword: event.target.value })}
          error={errorOf('confirmPassword')}
        />
        <Button type="submit" busy={busy}>
          {busy ? <Trans>Saving…</Trans> : <Trans>Save password</Trans>}
        </Button>
      </form>
    </AuthLayout>
  );
}
