import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { fetchProfile, updateProfile } from '../../api/profile';
import { useToast } from '../../machines/feedback';
import { updateStoredUser, useSession, type SessionUser } from '../../api/session';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { ProfileUpdateBody } from '../../contract/auth';
import { messages } from '../../contract/messages';
import styles from './profile.module.css';

type Values = { firstName: string; lastName: string; username: string };

const valuesOf = (user: SessionUser | null): Values => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  username: user?.username ?? '',
});

/** Names and username; shown from the stored user at once, refreshed from the server until the user edits. */
export function ProfileForm() {
  const { t } = useLingui();
  const toast = useToast();
  const { user } = useSession();
  const [values, setValues] = useState(() => valuesOf(user));
  const [dirty, setDirty] = useState(false);
  const { submit: save, saving, error, errorOf } = useFormSubmit(messages.requestFailed);

  const adopt = useEffectEvent((fresh: SessionUser) => {
    updateStoredUser(fresh);
    if (!dirty) setValues(valuesOf(fresh));
  });

  useEffect(() => {
    const controller = new AbortController();
    // The stored copy is on screen already; a failed refresh changes nothing the user sees.
    fetchProfile(controller.signal).then(adopt, () => {});
    return () => controller.abort();
  }, []);

  const field = (name: keyof Values) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      setValues({ ...values, [name]: event.target.value });
      setDirty(true);
    },
    error: errorOf(name),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    await save(ProfileUpdateBody, values, async (body) => {
      updateStoredUser(await updateProfile(body));
      setDirty(false);
      toast.success(i18n._(messages.profileUpdated));
    });
  }

  return (
    <section className={styles.card} aria-labelledby="profile-details">
      <h2 id="profile-details" className={styles.cardTitle}>
        <Trans>Personal details</Trans>
      </h2>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {error && <FormAlert>{error}</FormAlert>}
        <div className={styles.pair}>
          <TextField label={t`First name`} autoComplete="given-name" {...field('firstName')} />
          <TextField label={t`Last name`} autoComplete="family-name" {...field('lastName')} />
        </div>
        <TextField label={t`Username`} autoComplete="username" autoCapitalize="none" spellCheck={false} {...field('username')} />
        <TextField label={t`Email`} name="email" type="email" value={user?.email ?? ''} readOnly hint={t`Ask an administrator to change your email address.`} />
        <div className={styles.actions}>
          <Button type="submit" busy={saving}>
            {saving ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
          </Button>
        </div>
      </form>
    </section>
  );
}
