import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Construction } from 'lucide-react';
import styles from './placeholder-page.module.css';

/** Stands in for every screen a later release builds, under the route's own title. */
export function PlaceholderPage({ title }: { title: MessageDescriptor }) {
  const { i18n } = useLingui();
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>{i18n._(title)}</h1>
      <div className={styles.card}>
        <Construction aria-hidden size={32} />
        <p className={styles.text}>
          <Trans>This screen is coming soon.</Trans>
        </p>
      </div>
    </section>
  );
}
