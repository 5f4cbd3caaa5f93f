import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { PageProps } from '../page';
import { admins, users } from '../../contract/resources/accounts';
import { partners } from '../../contract/resources/partners';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/device-store';
import { accountStatusChoices } from '../admin/accounts';
import { partnerStatusChoices, websiteStatusChoices } from '../admin/choices';
import styles from '../resource/resource.module.css';
import { ResourceStoreProvider } from '../resource/store-context';
import { AreaSummary, prefetchArea, type Area } from './area-summary';
import board from './dashboard.module.css';

const AREAS: readonly Area[] = [
  { resource: websites, title: msg`Websites`, href: '/websites', view: (id) => `/websites/${id}`, statuses: websiteStatusChoices },
  { resource: users, title: msg`Users`, href: '/users', view: (id) => `/users/${id}`, statuses: accountStatusChoices },
  { resource: partners, title: msg`Partners`, href: '/partners', view: (id) => `/partners/${id}`, statuses: partnerStatusChoices },
  { resource: admins, title: msg`Admins`, href: '/admins', view: (id) => `/admins/${id}`, statuses: accountStatusChoices },
];

/** `/` for admins (spec §2): the figures of users, admins, websites and partners, and what changed last in each. */
export const DashboardPage = Object.assign(Dashboard, {
  /** Every area's reads, asked for while the app still loads (routes.tsx preloadPath). */
  prefetch: () => AREAS.forEach((area) => prefetchArea(resourceStore, area)),
});

function Dashboard({ title }: PageProps) {
  const { i18n } = useLingui();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <section className={styles.page}>
        <div className={styles.head}>
          <h1 className={styles.title}>{i18n._(title)}</h1>
          <nav className={styles.actionsRow} aria-label={i18n._(msg`Administration`)}>
            <Link href="/settings" className={board.quick}>
              <Trans>Settings</Trans>
            </Link>
            <Link href="/websites/categories" className={board.quick}>
              <Trans>Catalogs</Trans>
            </Link>
            <Link href="/languages" className={board.quick}>
              <Trans>Languages</Trans>
            </Link>
          </nav>
        </div>
        <div className={board.grid}>
          {AREAS.map((area) => (
            <AreaSummary key={area.resource.name} area={area} />
          ))}
        </div>
      </section>
    </ResourceStoreProvider>
  );
}
