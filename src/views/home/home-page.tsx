import { Trans } from '@lingui/react/macro';
import { useBranding } from '../../app/branding';
import styles from './home-page.module.css';

export function HomePage() {
  const branding = useBranding();

  return (
    <main className={styles.page} aria-busy={branding === null}>
      {branding && (
        <>
          {branding.cmsLogoUrl && <img className={styles.logo} src={branding.cmsLogoUrl} alt="" />}
          <h1 className={styles.title}>{branding.cmsName}</h1>
          <p className={styles.tagline}>
            <Trans>Websites, content and restaurant menus — online and offline.</Trans>
          </p>
        </>
      )}
    </main>
  );
}
