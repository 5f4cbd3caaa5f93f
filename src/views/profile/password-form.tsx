import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { changePassword } from '../../api/profile';
import { useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { messages } from '../../contract/messages';
import { ChangePasswordForm } from '../auth/password-confirmation';
import styles from './profile.module.css';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const { t } = useLingui();
  const toast = useToast();
  const [values, setValues] = useState(EMPTY);
  const { submit: save, saving, error, errorOf } = useFormSubmit(messages.changePasswordFailed);

  async function submit(event: FormEvent) {
    event.preventDefault();
    await save(ChangePasswordForm, values, async (body) => {
      const message = await changePassword({ currentPassword: body.currentPassword, newPassword: body.newPassword });
      setValues(EMPTY);
      toast.success(message ?? i18n._(messages.passwordChanged));
      onChanged();
    });
  }

  const field = (name: keyof typeof EMPTY) => ({
    name,
    type: 'password',
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
    error: errorOf(name),
  });

  return (
    <section className={styles.card} aria-labelledby="profile-password">
      <h2 id="profile-password" className={styles.cardTitle}>
        <Trans>Change password</Trans>
      </h2>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {error && <FormAlert>{error}</FormAlert>}
        <TextField label={t`Current password`} autoComplete="current-password" {...field('currentPassword')} />
        <TextField label={t`New password`} autoComplete="new-password" hint={t`At least 8 characters`} {...field('newPassword')} />
        <TextField label={t`Confirm new password`} autoComplete="new-password" {...field('confirmPassword')} />
        <p className={styles.note}>
          <Trans>Changing your password signs out your other devices.</Trans>
        </p>
        <div className={styles.actions}>
          <Button type="submit" busy={saving}>
            {saving ? <Trans>Saving…</Trans> : <Trans>Change password</Trans>}
          </Button>
        </div>
      </form>
    </section>
  );
}
