import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useParams } from 'wouter';
import type { PageProps } from '../page';
import { seo } from '../../contract/resources/cms';
import { resourceStore } from '../../db/device-store';
import { BackLink } from '../resource/back-link';
import { ResourceSingletonForm } from '../resource/resource-form';
import styles from '../resource/resource.module.css';
import type { ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';

const robotsChoices = [
  { value: 'index, follow', label: msg`Show in search results and follow links` },
  { value: 'noindex, follow', label: msg`Hide from search results, follow links` },
  { value: 'index, nofollow', label: msg`Show in search results, do not follow links` },
  { value: 'noindex, nofollow', label: msg`Hide from search results and do not follow links` },
] as const;

export const seoScreen = {
  resource: seo,
  columns: [],
  fields: [
    { name: 'title', label: msg`Title`, kind: 'text', hint: msg`What search results show as the website’s name; about 60 characters` },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
    { name: 'keywords', label: msg`Keywords`, kind: 'tags', hint: msg`Separated by commas` },
    { name: 'ogImageMediaId', label: msg`Picture for sharing (Open Graph)`, kind: 'picture', optional: true },
    { name: 'robots', label: msg`Search engines`, kind: 'choice', choices: robotsChoices },
    { name: 'sitemap', label: msg`Publish a sitemap`, kind: 'checkbox' },
    { name: 'isActive', label: msg`Active`, kind: 'checkbox' },
  ],
} satisfies ResourceScreen;

/** /websites/seo/{id} (spec §2, §7 SEO): the website's one SEO record; an empty form until it is first saved. */
export function SeoPage({ title }: PageProps) {
  const { i18n } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <section className={styles.page}>
        <BackLink href={`/websites/${websiteId}`}>{i18n._(msg`Website dashboard`)}</BackLink>
        <h1 className={styles.title}>{i18n._(title)}</h1>
        <ResourceSingletonForm key={websiteId} screen={seoScreen} />
      </section>
    </ResourceStoreProvider>
  );
}
