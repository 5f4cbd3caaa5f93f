import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, ImageOff, UtensilsCrossed } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { useSession, type SessionUser } from '../../api/session';
import { ImageUpload } from '../../components/image-upload';
import { boundTo, fillPath, titleOf } from '../../contract/resource';
import { MODULE } from '../../contract/modules';
import { allows, can, CMS_MODULES, hasFeature, isAdmin, type CmsModule } from '../../contract/permissions';
import { categories, hosting, languages, subcategories, technologies, types } from '../../contract/resources/catalogs';
import { partners } from '../../contract/resources/partners';
import { gastroMenus } from '../../contract/resources/gastro';
import { webhooks } from '../../contract/resources/webhooks';
import { apiKeys, websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/device-store';
import type { ListPage, Row } from '../../db/resource-store';
import { accountSource, websiteStatusChoices } from '../admin/choices';
import { ResourceRecordPage } from '../resource/record-page';
import styles from '../resource/resource.module.css';
import type { Column, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { useListPage } from '../resource/use-list-page';
import { ApiKeyPanel } from './api-key-panel';
import home from './website-home.module.css';

const lookup = (key: string, label: MessageDescriptor, resource: ResourceScreen['resource']): Column => ({ key, label, format: 'lookup', source: { resource } });

/** What a website's home shows of it; who owns it only to admins, who may read accounts. */
function homeScreen(user: SessionUser | null): ResourceScreen {
  return {
    resource: websites,
    columns: [
      { key: 'status', label: msg`Status`, format: 'choice', choices: websiteStatusChoices },
      { key: 'domain', label: msg`Domain` },
      ...(user && isAdmin(user) ? [{ key: 'ownerId', label: msg`Owner`, format: 'lookup', source: accountSource } satisfies Column] : []),
      ...(user && user.type !== 'teammember' ? [lookup('partnerId', msg`Partner`, partners)] : []),
      lookup('categoryId', msg`Category`, categories),
      lookup('subcategoryId', msg`Subcategory`, subcategories),
      lookup('typeId', msg`Website type`, types),
      lookup('hostingId', msg`Hosting`, hosting),
      lookup('technologyIds', msg`Technologies`, technologies),
      lookup('languageIds', msg`Languages`, languages),
      { key: 'price', label: msg`Price`, format: 'money' },
      { key: 'updatedAt', label: msg`Updated`, format: 'date' },
    ],
    fields: [],
  };
}

/** The food menu, first on a restaurant's home; with one menu it opens straight into it. */
function FoodMenuTile({ websiteId, menus }: { websiteId: string; menus: ListPage<Row> | null }) {
  const { i18n } = useLingui();
  const only = menus?.pagination.totalItems === 1 ? menus.items[0] : undefined;
  const base = `/cms/${websiteId}/${MODULE.gastro.path}`;
  return (
    <Link href={only ? `${base}/${only.id}` : base} className={`${home.tile} ${home.featured}`}>
      <UtensilsCrossed aria-hidden size={28} className={home.featuredIcon} />
      <span className={home.featuredText}>
        <span className={home.featuredName}>{only ? titleOf(gastroMenus, only) : i18n._(MODULE.gastro.name)}</span>
        <span className={home.featuredHint}>
          <Trans>Dishes, prices, sold out</Trans>
        </span>
      </span>
    </Link>
  );
}

interface LinksProps {
  row: Row;
  user: SessionUser;
  /** The website's food menus, where the person may see them (null: not asked for, or not read yet). */
  menus: ListPage<Row> | null;
}

/**
 * What a person opens a website's home for, first: its content. A restaurant's food menu leads
 * (a website that includes the gastronomy module, or has food menus), then the other modules,
 * then the CMS dashboard, SEO and team, each as their role allows (spec §2, §6).
 */
function SectionLinks({ row, user, menus }: LinksProps) {
  const { i18n } = useLingui();
  const id = row.id;
  const cms = hasFeature(user, 'cms');
  const modules = modulesOf(row, user);
  const restaurant = cms && modules.includes('gastro') && (includes(row, 'gastro') || (menus?.pagination.totalItems ?? 0) > 0);
  return (
    <section className={`${styles.card} ${styles.stack}`} aria-labelledby="website-content">
      <h2 id="website-content" className={styles.subtitle}>
        <Trans>Content</Trans>
      </h2>
      <nav className={home.links} aria-label={i18n._(msg`Website sections`)}>
        {restaurant && <FoodMenuTile websiteId={id} menus={menus} />}
        {cms &&
          modules
            .filter((module) => !(restaurant && module === 'gastro'))
            .map((module) => (
              <Link key={module} href={`/cms/${id}/${MODULE[module].path}`} className={home.tile}>
                {i18n._(MODULE[module].name)}
              </Link>
            ))}
        {cms && (
          <Link href={`/cms/${id}`} className={home.tile}>
            <Trans>CMS dashboard</Trans>
          </Link>
        )}
        {hasFeature(user, 'seo') && (
          <Link href={`/websites/seo/${id}`} className={home.tile}>
            <Trans>SEO</Trans>
          </Link>
        )}
        {hasFeature(user, 'team') && (
          <Link href={`/cms/${id}/team`} className={home.tile}>
            <Trans>Team</Trans>
          </Link>
        )}
      </nav>
    </section>
  );
}

/** The food menus read as their own list reads them (this device's copy first, the same cached page). */
function RestaurantLinks(props: Omit<LinksProps, 'menus'>) {
  const menus = useMemo(() => boundTo(gastroMenus, { websiteId: props.row.id }), [props.row.id]);
  // A tile, not a list: without its count (not loaded) it still leads to the menus.
  return <SectionLinks {...props} menus={useListPage(menus, {}).page} />;
}

/** Whether the website's services name this module (none named: every module). */
const includes = (row: Row, module: CmsModule) => Array.isArray(row.modules) && (row.modules as CmsModule[]).includes(module);

/** The modules of the website that the person may see. */
function modulesOf(row: Row, user: SessionUser): CmsModule[] {
  const chosen = Array.isArray(row.modules) && row.modules.length > 0 ? (row.modules as CmsModule[]) : CMS_MODULES;
  return chosen.filter((module) => can(user, module, 'view'));
}

function WebsiteLinks({ row, user }: Omit<LinksProps, 'menus'>) {
  return hasFeature(user, 'cms') && modulesOf(row, user).includes('gastro') ? <RestaurantLinks row={row} user={user} /> : <SectionLinks row={row} user={user} menus={null} />;
}

interface WebsiteHomeProps {
  id: string;
  /** Where "back" leads; none where this is the person's home (their only website). */
  back?: { href: string; label: MessageDescriptor };
  /** What the page ends with (an owner's ways to another website). */
  footer?: ReactNode;
}

/**
 * A website's home: its content first — the modules and the ways into its CMS, SEO and team — then
 * its details, its preview and its delivery API key.
 */
export function WebsiteHome({ id, back, footer }: WebsiteHomeProps) {
  const { user } = useSession();
  const { t } = useLingui();
  if (!user) return null;
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceRecordPage
        key={id}
        screen={homeScreen(user)}
        id={id}
        back={back}
        edit={isAdmin(user) ? `/websites/manage/${id}` : `/websites/edit/${id}`}
        renderLead={(row) => <WebsiteLinks row={row} user={user} />}
      >
        {(row, reload) => (
          <>
            <figure className={home.preview}>
              {allows(websites.access.update, user) ? (
                <ImageUpload
                  label={t`Preview`}
                  uploadPath={fillPath(websites.image!.path, { id: row.id })}
                  imageUrl={typeof row.previewUrl === 'string' ? row.previewUrl : null}
                  resource={websites}
                  onUploaded={reload}
                />
              ) : typeof row.previewUrl === 'string' ? (
                <img src={row.previewUrl} alt={t`Preview of ${String(row.name)}`} className={home.image} />
              ) : (
                <div className={home.empty}>
                  <ImageOff aria-hidden size={32} />
                  <Trans>No preview yet</Trans>
                </div>
              )}
              {typeof row.domain === 'string' && row.domain && (
                <figcaption>
                  <a href={`https://${row.domain}`} target="_blank" rel="noopener noreferrer" className={home.external}>
                    {row.domain}
                    <ExternalLink aria-hidden size={16} />
                  </a>
                </figcaption>
              )}
            </figure>
            {allows(apiKeys.access.get, user) && <ApiKeyPanel websiteId={row.id} />}
            {allows(webhooks.access.list, user) && (
              <p>
                <Link href={`/websites/${row.id}/webhooks`} className={home.tile}>
                  <Trans>Webhooks</Trans>
                </Link>
              </p>
            )}
            {footer}
          </>
        )}
      </ResourceRecordPage>
    </ResourceStoreProvider>
  );
}

/**
 * /websites/{id} (spec §2: only the global guard). A team member's dashboard, their home: no way
 * back from it; everyone else came from a list of websites.
 */
export function WebsiteHomePage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useSession();
  if (!user) return null;
  const back = user.type === 'teammember' ? undefined : isAdmin(user) ? { href: '/websites', label: msg`Websites` } : { href: '/user/websites', label: msg`My websites` };
  return <WebsiteHome id={id} back={back} />;
}
