import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { useParams } from 'wouter';
import type { PageProps } from '../../app/routes';
import { useSession } from '../../app/session';
import { can, hasFeature, type CmsModule } from '../../contract/permissions';
import { inScope, type Resource } from '../../contract/resource';
import { gallerySliders, heroSliders, media, menus, pages, posts } from '../../contract/resources/cms';
import { gastroMenus } from '../../contract/resources/gastro';
import { resourceStore } from '../../db/store';
import { AreaSummary, type Area } from '../dashboard/area-summary';
import board from '../dashboard/dashboard.module.css';
import { BackLink } from '../resource/back-link';
import styles from '../resource/resource.module.css';
import type { Choice } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { CMS_MODULE_PAGES } from './modules';

const contentStatuses: readonly Choice[] = [
  { value: 'draft', label: msg`Draft` },
  { value: 'published', label: msg`Published` },
];
const sliderStatuses: readonly Choice[] = [
  { value: 'active', label: msg`Active` },
  { value: 'inactive', label: msg`Inactive` },
];

/** The modules built so far, each with its entry, where one record opens and whether it has a form of its own. */
const MODULES: readonly { module: CmsModule; resource: Resource; edit: string | null; statuses: readonly Choice[] }[] = [
  { module: 'pages', resource: pages, edit: 'pages/edit', statuses: contentStatuses },
  { module: 'posts', resource: posts, edit: 'posts/edit', statuses: contentStatuses },
  { module: 'menus', resource: menus, edit: 'menu/edit', statuses: [] },
  { module: 'heroSliders', resource: heroSliders, edit: 'hero-slider/edit', statuses: sliderStatuses },
  { module: 'gallerySliders', resource: gallerySliders, edit: 'gallery-slider/edit', statuses: sliderStatuses },
  { module: 'media', resource: media, edit: null, statuses: [] },
  // A food menu opens as it is printed (its form is one tap from there).
  { module: 'gastro', resource: gastroMenus, edit: 'gastromenu', statuses: contentStatuses },
];

/**
 * /cms/{id} (spec §2): each module the person's role lets them see, with its figures and what
 * changed last; modules above their role are not shown, and adding where their level stops short
 * of manage is shown disabled (spec §6).
 */
export function CmsDashboardPage({ title }: PageProps) {
  const { i18n } = useLingui();
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useSession();
  const areas = useMemo<Area[]>(() => {
    if (!user || !hasFeature(user, 'cms')) return [];
    return MODULES.filter(({ module }) => can(user, module, 'view')).map(({ module, resource, edit, statuses }) => {
      const base = `/cms/${id}/${CMS_MODULE_PAGES[module].path}`;
      return {
        resource: inScope(resource, { websiteId: id }),
        title: CMS_MODULE_PAGES[module].label,
        href: base,
        view: (record) => (edit ? `/cms/${id}/${edit}/${record}` : base),
        statuses,
        create: { href: edit ? `${base}/new` : base, allowed: can(user, module, 'manage') },
      };
    });
  }, [id, user]);
  return (
    <ResourceStoreProvider store={resourceStore}>
      <section className={styles.page}>
        <BackLink href={`/websites/${id}`}>{i18n._(msg`Website dashboard`)}</BackLink>
        <h1 className={styles.title}>{i18n._(title)}</h1>
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
