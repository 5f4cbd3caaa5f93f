import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { use, useMemo } from 'react';
import { Link, useParams } from 'wouter';
import { CMS_SECTIONS, withRecord, type CmsSection } from '../cms-modules';
import type { PageProps } from '../page';
import { useSession } from '../../api/session';
import { MODULE } from '../../contract/modules';
import { can, hasFeature, type CmsModule } from '../../contract/permissions';
import { boundTo, type Resource } from '../../contract/resource';
import { resourceStore } from '../../db/device-store';
import { AreaSummary, type Area } from '../dashboard/area-summary';
import board from '../dashboard/dashboard.module.css';
import { BackLink } from '../resource/back-link';
import styles from '../resource/resource.module.css';
import type { Choice } from '../resource/screen';
import { fillRoute } from '../resource/use-screen-routes';
import { ResourceStoreProvider } from '../resource/store-context';
import { tracked } from '../../components/lazy-screen';

/** A status a card counts its records by, in words. */
const statusWords: Readonly<Record<string, Choice['label']>> = {
  draft: msg`Draft`,
  published: msg`Published`,
  active: msg`Active`,
  inactive: msg`Inactive`,
};

interface Card {
  module: CmsModule;
  section: CmsSection;
  resource: Resource;
  statuses: readonly Choice[];
}

/** The values of an entry's `status` filter, the figures its card shows besides its totals. */
function statusesOf(resource: Resource): Choice[] {
  const status = resource.filters.status as { options?: readonly unknown[] } | undefined;
  return (status?.options ?? []).flatMap((value) => (typeof value === 'string' && statusWords[value] ? [{ value, label: statusWords[value] }] : []));
}

let cards: Promise<Card[]> | null = null;
/**
 * Every CMS module's card, with its entry loaded (the entries live in chunks of their own); asked
 * again after a failure. The page is ready with them (lazyScreen), so it renders without suspending.
 */
function loadCards(): Promise<Card[]> {
  cards ??= tracked(
    Promise.all(
      CMS_SECTIONS.flatMap((section) => {
        const { access, card } = section;
        if (!card || !('module' in access)) return [];
        return [card.resource().then((resource) => ({ module: access.module, section, resource, statuses: statusesOf(resource) }))];
      }),
    ).catch((error: unknown) => {
      cards = null;
      throw error;
    }),
  );
  return cards;
}

/**
 * /cms/{id} (spec §2): each module the person's role lets them see, with its figures and what
 * changed last; modules above their role are not shown, and adding where their level stops short
 * of manage is shown disabled (spec §6).
 */
function CmsDashboard({ title }: PageProps) {
  const { i18n } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const { user } = useSession();
  const loaded = use(loadCards());
  const areas = useMemo<Area[]>(() => {
    if (!user || !hasFeature(user, 'cms')) return [];
    return loaded
      .filter(({ module }) => can(user, module, 'view'))
      .map(({ module, section, resource, statuses }) => {
        const at = (name: string | undefined) => fillRoute(section.routes[name ?? 'list']!.path, { websiteId });
        const base = at('list');
        const open = section.card?.open;
        return {
          resource: boundTo(resource, { websiteId }),
          title: MODULE[module].name,
          href: base,
          view: (record) => (open ? withRecord(at(open), record) : base),
          statuses,
          create: { href: at(section.card?.create), allowed: can(user, module, 'manage') },
        };
      });
  }, [websiteId, user, loaded]);
  return (
    <ResourceStoreProvider store={resourceStore}>
      <section className={styles.page}>
        <BackLink href={`/websites/${websiteId}`}>{i18n._(msg`Website dashboard`)}</BackLink>
        <div className={styles.head}>
          <h1 className={styles.title}>{i18n._(title)}</h1>
          {/* Any of the website's people: each sees there what their role lists. */}
          <Link href={`/cms/${websiteId}/recycle-bin`} className={styles.link}>
            {i18n._(msg`Recycle bin`)}
          </Link>
          <Link href={`/cms/${websiteId}/activity`} className={styles.link}>
            {i18n._(msg`Activity`)}
          </Link>
        </div>
        {areas.length === 0 ? (
          <p className={styles.muted}>{i18n._(msg`Your role opens no part of this website’s content.`)}</p>
        ) : (
          <div className={board.grid}>
            {areas.map((area) => (
              <AreaSummary key={area.resource.name} area={area} />
            ))}
          </div>
        )}
      </section>
    </ResourceStoreProvider>
  );
}

export const CmsDashboardPage = Object.assign(CmsDashboard, { ready: loadCards });
