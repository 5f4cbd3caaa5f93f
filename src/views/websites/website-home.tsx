import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, ImageOff } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { useSession, type SessionUser } from '../../app/session';
import { ImageUpload } from '../../components/image-upload';
import { fillPath } from '../../contract/resource';
import { allows, can, CMS_MODULES, hasFeature, isAdmin, type CmsModule } from '../../contract/permissions';
import { categories, hosting, subcategories, types } from '../../contract/resources/catalogs';
import { partners } from '../../contract/resources/partners';
import { apiKeys, websites } from '../../contract/resources/websites';
import type { Row } from '../../db/resource-store';
import { resourceStore } from '../../db/store';
import { accountSource, websiteStatusChoices } from '../admin/choices';
import { ResourceRecordPage } from '../resource/record-page';
import styles from '../resource/resource.module.css';
import type { Column, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { CMS_MODULE_PAGES } from '../cms/modules';
import { ApiKeyPanel } from './api-key-panel';
import home from './website-home.module.css';

const lookup = (key: string, label: MessageDescriptor, resource: ResourceScreen['resource']): Column => ({ key, label, format: 'lookup', source: { resource } });

/** What a website's home shows of it; who owns it only to admins, who may read accounts. */
const count = (row: Row, key: string) => (Array.isArray(row[key]) ? (row[key] as string[]).length : 0);

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
      { key: 'technologyIds', label: msg`Technologies`, text: (row) => String(count(row, 'technologyIds')) },
      { key: 'languageIds', label: msg`Languages`, text: (row) => String(count(row, 'languageIds')) },
      { key: 'price', label: msg`Price`, format: 'money' },
      { key: 'updatedAt', label: msg`Updated`, format: 'date' },
    ],
    fields: [],
  };
}

/** Where a person goes from a website's home: its CMS and its modules, SEO, team, settings, each as their role allows (spec §2, §6). */
function WebsiteLinks({ row, user }: { row: Row; user: SessionUser }) {
  const { i18n } = useLingui();
  const id = row.id;
  const included = Array.isArray(row.modules) && row.modules.length > 0 ? (row.modules as CmsModule[]) : CMS_MODULES;
  const modules = included.filter((module) => can(user, module, 'view'));
  return (
    <section className={`${styles.card} ${styles.stack}`}>
      <h2 className={styles.subtitle}>
        <Trans>Content</Trans>
      </h2>
      <nav className={home.links} aria-label={i18n._(msg`Website sections`)}>
        {hasFeature(user, 'cms') && (
          <Link href={`/cms/${id}`} className={home.tile}>
            <Trans>CMS dashboard</Trans>
          </Link>
        )}
        {hasFeature(user, 'cms') &&
          modules.map((module) => (
            <Link key={module} href={`/cms/${id}/${CMS_MODULE_PAGES[module].path}`} className={home.tile}>
              {i18n._(CMS_MODULE_PAGES[module].label)}
            </Link>
          ))}
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

/**
 * /websites/{id} (spec §2: only the global guard): a website's home — its preview, its details,
 * its modules and the ways into its CMS, SEO and team, and its delivery API key.
 */
export function WebsiteHomePage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useSession();
  const { t } = useLingui();
  if (!user) return null;
  const back = user.type === 'teammember' ? null : isAdmin(user) ? { href: '/websites', label: msg`Websites` } : { href: '/user/websites', label: msg`My websites` };
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceRecordPage
        key={id}
        screen={homeScreen(user)}
        id={id}
        back={back ?? { href: `/websites/${id}`, label: msg`Website dashboard` }}
        edit={isAdmin(user) ? `/websites/manage/${id}` : `/websites/edit/${id}`}
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
            <WebsiteLinks row={row} user={user} />
            {allows(apiKeys.access.get, user) && <ApiKeyPanel websiteId={row.id} />}
          </>
        )}
      </ResourceRecordPage>
    </ResourceStoreProvider>
  );
}
