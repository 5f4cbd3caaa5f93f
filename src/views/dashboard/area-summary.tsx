import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus } from 'lucide-react';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { Link } from 'wouter';
import { dateFormat } from '../../components/intl-formats';
import { StatBoxes } from '../../components/stat-boxes';
import { RECENT_DAYS, titleOf, type Resource } from '../../contract/resource';
import styles from '../resource/resource.module.css';
import type { Choice } from '../resource/screen';
import { resourceText } from '../../api/resource-text';
import { initialListQuery } from '../../machines/list.machine';
import { prefetchList, type ResourceStore } from '../../db/resource-store';
import { LoadProblem } from '../resource/offline-note';
import { useResourceStore } from '../resource/store-context';
import { useListActor } from '../resource/use-list-page';
import { prefetchStats, useStats } from '../resource/use-stats';
import board from './dashboard.module.css';

/** One area of a dashboard (the admin's websites, a website's pages): its figures and what changed last. */
export interface Area {
  resource: Resource;
  title: MessageDescriptor;
  href: string;
  /** Where one record of it opens. */
  view: (id: string) => string;
  statuses: readonly Choice[];
  /** Where a new record is made, and whether this person may (spec §6: a control above their level shows, disabled). */
  create?: { href: string; allowed: boolean };
}


/** The records of an area changed last. */
const LATEST = { limit: 5, sortBy: 'updatedAt', sortOrder: 'desc' } as const;
const latestQuery = (resource: Resource) => initialListQuery(resource, LATEST);

/** Starts reading an area's figures and latest changes while its screen's code is still loading. */
export function prefetchArea(store: ResourceStore, { resource }: Pick<Area, 'resource'>): void {
  prefetchStats(resource);
  prefetchList(store, resource, latestQuery(resource));
}

export function AreaSummary({ area }: { area: Area }) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const stats = useStats(area.resource);
  const actor = useListActor(useResourceStore(), area.resource, LATEST);
  const latest = useSelector(actor, (snapshot) => snapshot.context.page)?.items ?? null;
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
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
      <div className={board.areaHead}>
        <h2 id={headingId} className={styles.subtitle}>
          <Link href={area.href}>{i18n._(area.title)}</Link>
        </h2>
        {area.create &&
          (area.create.allowed ? (
            <Link href={area.create.href} className={board.quick}>
              <Plus aria-hidden size={16} />
              <Trans>Add</Trans>
            </Link>
          ) : (
            <button type="button" className={board.quick} disabled title={t`Your role may not add here`}>
              <Plus aria-hidden size={16} />
              <Trans>Add</Trans>
            </button>
          ))}
      </div>
      {figures.length > 0 && <StatBoxes stats={figures} />}
      <h3 className={board.small}>
        <Trans>Changed last</Trans>
      </h3>
      {failed ? (
        <LoadProblem failed={resourceText(area.resource, 'loadFailed')} reason={error} onRetry={() => actor.send({ type: 'list.refresh' })} />
      ) : latest === null ? (
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

