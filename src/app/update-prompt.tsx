import { Trans } from '@lingui/react/macro';
import { useRegisterSW } from 'virtual:pwa-register/react';
import styles from './update-prompt.module.css';

// An admin tab stays open for days; without polling it would only learn of a release on a full reload.
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/** Offers a waiting service worker (registerType 'prompt'): the user decides when the page reloads. */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // The plugin reloads only pages that were already controlled when they loaded; activateUpdate reloads every page.
    onNeedReload() {},
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_INTERVAL_MS);
    },
    onRegisterError(error) {
      console.error('Service worker registration failed', error);
    },
  });

  function activateUpdate() {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    void updateServiceWorker(true);
  }

  if (!needRefresh) return null;

  return (
    <div className={styles.banner} role="status">
      <p className={styles.text}>
        <Trans>A new version is available</Trans>
      </p>
      <button type="button" className={styles.primary} onClick={activateUpdate}>
        <Trans>Reload</Trans>
      </button>
      <button type="button" className={styles.secondary} onClick={() => setNeedRefresh(false)}>
        <Trans>Dismiss</Trans>
      </button>
    </div>
  );
}
