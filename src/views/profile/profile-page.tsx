import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { DevicesSection } from './devices-section';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import styles from './profile.module.css';

/** The signed-in user's own account: names and username, password, signed-in devices. */
export function ProfilePage() {
  // A new password signs the other devices out: the list is loaded afresh.
  const [devicesVersion, setDevicesVersion] = useState(0);

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>
        <Trans>Profile</Trans>
      </h1>
      <ProfileForm />
      <PasswordForm onChanged={() => setDevicesVersion((version) => version + 1)} />
      <DevicesSection key={devicesVersion} />
    </div>
  );
}
