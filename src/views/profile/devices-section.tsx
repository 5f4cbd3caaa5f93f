import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Monitor, Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { fetchDevices, signOutDevice, type ProfileDevice } from '../../api/profile';
import { useConfirm, useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { dateTimeFormat } from '../../components/intl-formats';
import { messages } from '../../contract/messages';
import styles from './profile.module.css';

// The server names devices like "Chrome on Android".
const MOBILE = /android|iphone|ipad|mobile/i;

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; devices: ProfileDevice[] };

function loadDevices(signal?: AbortSignal): Promise<Load> {
  return fetchDevices(signal).then(
    (devices): Load => ({ state: 'loaded', devices }),
    (error: unknown): Load => ({ state: 'failed', message: error instanceof Error ? error.message : '' }),
  );
}

/** The user's signed-in sessions; any but this one can be signed out after a confirmation. */
export function DevicesSection() {
  const { t } = useLingui();
  const toast = useToast();
  const { confirm } = useConfirm();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [revoking, setRevoking] = useState<string | null>(null);
  const seen = dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });

  useEffect(() => {
    const controller = new AbortController();
    void loadDevices(controller.signal).then((loaded) => {
      if (!controller.signal.aborted) setLoad(loaded);
    });
    return () => controller.abort();
  }, []);

  function retry() {
    setLoad({ state: 'loading' });
    void loadDevices().then(setLoad);
  }

  async function revoke(device: ProfileDevice) {
    const confirmed = await confirm({
      title: t`Sign out this device?`,
      message: t`${device.device} (${device.ip}) will have to sign in again.`,
      confirmText: t`Sign out`,
      cancelText: t`Cancel`,
      type: 'danger',
    });
    if (!confirmed) return;
    setRevoking(device.id);
    try {
      const message = await signOutDevice(device.id);
      setLoad((current) => (current.state === 'loaded' ? { ...current, devices: current.devices.filter((d) => d.id !== device.id) } : current));
      toast.success(message ?? i18n._(messages.deviceSignedOut));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : i18n._(messages.requestFailed));
    } finally {
      setRevoking(null);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="profile-devices" aria-busy={load.state === 'loading'}>
      <h2 id="profile-devices" className={styles.cardTitle}>
        <Trans>Devices</Trans>
      </h2>
      {load.state === 'loading' && (
        <p className={styles.note}>
          <Trans>Loading devices…</Trans>
        </p>
      )}
      {load.state === 'failed' && (
        <>
          <FormAlert>{load.message}</FormAlert>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={retry}>
              <Trans>Try again</Trans>
            </Button>
          </div>
        </>
      )}
      {load.state === 'loaded' && (
        <ul className={styles.devices}>
          {load.devices.map((device) => {
            const { ip } = device;
            const lastSeen = seen.format(new Date(device.lastSeenAt));
            const Icon = MOBILE.test(device.device) ? Smartphone : Monitor;
            return (
            <li key={device.id} className={styles.device}>
              <Icon aria-hidden size={24} className={styles.deviceIcon} />
              <div className={styles.deviceText}>
                <p className={styles.deviceName}>
                  {device.device}
                  {device.current && (
                    <span className={styles.badge}>
                      <Trans>This device</Trans>
                    </span>
                  )}
                </p>
                <p className={styles.note}>
                  <Trans>
                    IP {ip} · last seen {lastSeen}
                  </Trans>
                </p>
              </div>
              {!device.current && (
                <Button
                  variant="danger"
                  busy={revoking === device.id}
                  aria-label={t`Sign out ${device.device}`}
                  onClick={() => void revoke(device)}
                >
                  <Trans>Sign out</Trans>
                </Button>
              )}
            </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
