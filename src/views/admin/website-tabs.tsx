import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Link, useLocation } from 'wouter';
import { useSession } from '../../app/session';
import { isAdmin } from '../../contract/permissions';
import { PlaceholderPage } from '../placeholder/placeholder-page';
import styles from './website-tabs.module.css';

/** The admin's website section (spec §2 routes under /websites): the websites and the catalogs they are described with. */
const TABS: readonly { href: string; label: MessageDescriptor }[] = [
  { href: '/websites', label: msg`Websites` },
  { href: '/websites/categories', label: msg`Categories` },
  { href: '/websites/subcategories', label: msg`Subcategories` },
  { href: '/websites/types', label: msg`Website types` },
  { href: '/websites/technologies', label: msg`Technologies` },
  { href: '/websites/hosting', label: msg`Hosting` },
];

export function WebsiteTabs() {
  const { t, i18n } = useLingui();
  const [path] = useLocation();
  // A category's subcategories belong to the categories tab.
  const current = TABS.findLast((tab) => path === tab.href || path.startsWith(`${tab.href}/`))?.href;
  return (
    <nav className={styles.tabs} aria-label={t`Website section`}>
      {TABS.map((tab) => (
        <Link key={tab.href} href={tab.href} className={styles.tab} aria-current={tab.href === current ? 'page' : undefined}>
          {i18n._(tab.label)}
        </Link>
      ))}
    </nav>
  );
}

/** /websites until the websites module: for admins the way into the catalogs, above the placeholder. */
export function WebsitesPlaceholder({ title }: { title: MessageDescriptor }) {
  const { user } = useSession();
  return (
    <>
      {user && isAdmin(user) && <WebsiteTabs />}
      <PlaceholderPage title={title} />
    </>
  );
}
