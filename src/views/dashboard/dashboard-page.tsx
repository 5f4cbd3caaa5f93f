import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Link } from 'wouter';
import type { PageProps } from '../../app/routes';
import { StatBoxes } from '../../components/stat-boxes';
import { dateFormat } from '../../components/intl-formats';
import { RECENT_DAYS, titleOf, type Resource } from '../../contract/resource';
import { admins, users } from '../../contract/resources/accounts';
import { partners } from '../../contract/resources/partners';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/store';
import { accountStatusChoices } from '../admin/accounts';
import { partnerStatusChoices, websiteStatusChoices } from '../admin/choices';
import styles from '../resource/resource.module.css';
import type { Choice } from '../resource/screen';
import { useStats } from '../resource/use-stats';
import { ResourceStoreProvider } from '../resource/store-context';
import { useListPage } from '../resource/use-list-page';
import board from './dashboard.module.css';

interface Area {
  resource: Resource;
  title: MessageDescriptor;
  href: string;
  /** Where one record of it opens. */
  view: (id: string) => string;
  statuses: readonly Choice[];
}

const AREAS: readonly Area[] = [
  { resource: websites, title: msg`Websites`, href: '/websites', view: (id) => `/websites/${id}`, statuses: websiteStatusChoices },
  { resource: users, title: msg`Users`, href: '/users', view: (id) => `/users/${id}`, statuses: accountStatusChoices },
  { resource: partners, title: msg`Partners`, href: '/partners', view: (id) => `/partners/${id}`, statuses: partnerStatusChoices },
  { resource: admins, title: msg`Admins`, href: '/admins', view: (id) => `/admins/${id}`, statuses: accountStatusChoices },
];

/** The records of an area changed last. */
const LATEST = { limit: 5, sortBy: 'updatedAt', sortOrder: 'desc' } as const;

function AreaSummary({ area }: { area: Area }) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const stats = useStats(area.resource);
  const latest = useListPage(area.resource, LATEST)?.items ?? null;
  const date = dateFormat(i18n.locale);
  const figures = stats
    ? [
        { label: t`Total`, value: String(stats.total) },
        { label: t`New (${RECENT_DAYS} days)`, value: String(stats.recent) },
        ...area.statuses.map((choice) => ({ label: i18n._(choice.label), value: String(stats.by.status?.[choice.value] ?? 0) })),
      ]
    : [];
  return (
    <section className={`${styles.card} ${styles.stack} ${board.area}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.subtitle}>
        <Link href={area.href}>{i18n._(area.title)}</Link>
      </h2>
      {figures.length > 0 && <StatBoxes stats={figures} />}
      <h3 className={board.small}>
        <Trans>Changed last</Trans>
      </h3>
      {latest === null ? (
        <p className={styles.muted}>
          <Trans>Loading…</Trans>
        </p>
      ) : latest.length === 0 ? (
        <p className={styles.muted}>
          <Trans>Nothing yet.</Trans>
        </p>
      ) : (
        <ul className={styles.links}>
          {latest.map((row) => (
            <li key={row.id} className={board.change}>
              <Link href={area.view(row.id)}>{titleOf(area.resource, row)}</Link>
              <time dateTime={String(row.updatedAt)} className={styles.muted}>
                {typeof row.updatedAt === 'string' ? date.format(new Date(row.updatedAt)) : ''}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** `/` for admins (spec §2): the figures of users, admins, websites and partners, and what changed last in each. */
export function DashboardPage({ title }: PageProps) {
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
