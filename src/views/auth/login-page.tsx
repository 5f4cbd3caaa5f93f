import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../../machines/auth';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { LoginBody } from '../../contract/auth';
import { AuthLayout } from './auth-layout';
import styles from './auth.module.css';
import { useFreshStart, useStatusChange } from './auth-flow';

export function LoginPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ emailOrUsername: '', password: '' });
  const { check, errorOf } = useFieldErrors(auth.fieldErrors);
  const busy = auth.status === 'submitting';
  useFreshStart();
  useStatusChange(auth.status, 'awaitingPin', () => navigate('/verification'));

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = check(LoginBody, values);
    if (body) auth.login(body.emailOrUsername, body.password);
  }

  return (
    <AuthLayout
      title={<Trans>Sign in</Trans>}
      footer={
        <Link href="/forgot-password" className={styles.link}>
          <Trans>Forgot password?</Trans>
        </Link>
      }
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        {auth.error && <FormAlert>{auth.error}</FormAlert>}
        <TextField
          label={t`Email or username`}
          name="emailOrUsername"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.emailOrUsername}
          onChange={(event) => setValues({ ...values, emailOrUsername: event.target.value })}
          error={errorOf('emailOrUsername')}
        />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(event) => setValues({ ...values, password: event.target.value })}
          error={errorOf('password')}
        />
        <Button type="submit" busy={busy}>
          {busy ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </Button>
      </form>
    </AuthLayout>
  );
}
