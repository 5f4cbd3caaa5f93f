import { Trans, useLingui } from '@lingui/react/macro';
import { useBranding } from '../../app/branding';
import styles from './shell.module.css';

// The operator decides where help lives (build-time env); a link to nowhere is worse than none.
const HELP_URL = import.meta.env.VITE_HELP_URL;
const SUPPORT_URL = import.meta.env.VITE_SUPPORT_URL;
// Read once: a tab left open over New Year shows last year until it reloads.
const YEAR = new Date().getFullYear();

export function Footer() {
  const { t } = useLingui();
  const cmsName = useBranding()?.cmsName ?? '';
  const year = YEAR;

  return (
    <footer className={styles.footer}>
      <p className={styles.copyright}>
        <Trans>
          © {year} {cmsName}
        </Trans>
      </p>
      {(HELP_URL || SUPPORT_URL) && (
        <nav className={styles.footerLinks} aria-label={t`Help`}>
          {HELP_URL && (
            <a href={HELP_URL}>
              <Trans>Help Center</Trans>
            </a>
          )}
          {SUPPORT_URL && (
            <a href={SUPPORT_URL}>
              <Trans>Support</Trans>
            </a>
          )}
        </nav>
      )}
    </footer>
  );
}
