import { Trans, useLingui } from '@lingui/react/macro';
import { useBranding } from '../../api/branding';
import type { WhiteLabelConfig } from '../../contract/branding';
import styles from './shell.module.css';

// Read once: a tab left open over New Year shows last year until it reloads.
const YEAR = new Date().getFullYear();

/** Where the footer's two links lead. */
export interface FooterLinks {
  help: string;
  support: string;
}

/**
 * Spec §2: the footer offers Help Center and Support. Each one's address is the settings' (helpUrl,
 * supportUrl, so the operator changes it at /settings), else the build's (VITE_HELP_URL,
 * VITE_SUPPORT_URL). With only one address, both links lead there: whoever answers support also
 * helps, and whatever helps is better than no link. With none at all there is nowhere to send
 * anyone, so neither link shows (a link to nowhere is worse than none).
 */
export function footerLinks(branding: Pick<WhiteLabelConfig, 'helpUrl' | 'supportUrl'> | null, build: { help?: string; support?: string }): FooterLinks | null {
  const help = branding?.helpUrl || build.help || '';
  const support = branding?.supportUrl || build.support || '';
  if (!help && !support) return null;
  return { help: help || support, support: support || help };
}

export function Footer() {
  const { t } = useLingui();
  const branding = useBranding();
  const cmsName = branding?.cmsName ?? '';
  const year = YEAR;
  const links = footerLinks(branding, { help: import.meta.env.VITE_HELP_URL, support: import.meta.env.VITE_SUPPORT_URL });

  return (
    <footer className={styles.footer}>
      <p className={styles.copyright}>
        <Trans>
          © {year} {cmsName}
        </Trans>
      </p>
      {links && (
        <nav className={styles.footerLinks} aria-label={t`Help`}>
          <a href={links.help}>
            <Trans>Help Center</Trans>
          </a>
          <a href={links.support}>
            <Trans>Support</Trans>
          </a>
        </nav>
      )}
    </footer>
  );
}
