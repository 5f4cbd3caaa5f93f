import type { ReactNode } from 'react';
import { useBranding } from '../../api/branding';
import styles from './auth.module.css';

interface AuthLayoutProps {
  title: ReactNode;
  children: ReactNode;
  /** Links under the card, e.g. back to sign-in. */
  footer?: ReactNode;
}

/** The bare page of the sign-in steps (spec §2): the brand above one card, no shell. */
export function AuthLayout({ title, children, footer }: AuthLayoutProps) {
  const branding = useBranding();
  return (
    <main className={styles.page} aria-busy={branding === null}>
      <div className={styles.brand}>
        {branding?.cmsLogoUrl && <img className={styles.logo} src={branding.cmsLogoUrl} alt="" />}
        <h1 className={styles.name}>{branding?.cmsName}</h1>
      </div>
      <section className={styles.card} aria-labelledby="auth-title">
        <h2 id="auth-title" className={styles.title}>
          {title}
        </h2>
        {children}
      </section>
      {footer && <div className={styles.footer}>{footer}</div>}
    </main>
  );
}
