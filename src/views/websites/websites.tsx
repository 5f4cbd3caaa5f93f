import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Blocks, Plus } from 'lucide-react';
import { Link, useParams } from 'wouter';
import type { PageProps } from '../page';
import { useSession } from '../../api/session';
import buttonStyles from '../../components/form/form.module.css';
import { isAdmin } from '../../contract/permissions';
import { categories, hosting, languages, subcategories, technologies, types } from '../../contract/resources/catalogs';
import { partners } from '../../contract/resources/partners';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/device-store';
import { prefetchList } from '../../db/resource-store';
import { initialListQuery } from '../../machines/list.machine';
import { accountSource, ownerField, websiteStatusChoices } from '../admin/choices';
import { WebsiteTabs } from '../admin/website-tabs';
import { screenPages } from '../resource/screen-pages';
import { ResourceFormPage } from '../resource/resource-form';
import styles from '../resource/resource.module.css';
import type { Column, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { useListActor } from '../resource/use-list-page';
import { WebsiteHome } from './website-home';
import { Loading } from '../resource/loading';

// Spec §7 Websites: the admin's list of all websites (/websites, /websites/manage/{id}) and an
// owner's or partner's own (/user/websites, /websites/edit/{id}); /websites/{id} is a website's home.

const partnerSource = { resource: partners };
const categorySource = { resource: categories };
const subcategorySource = { resource: subcategories };

const name: Column = { key: 'name', label: msg`Name`, sortable: true };
const domain: Column = { key: 'domain', label: msg`Domain`, sortable: true };
const status: Column = { key: 'status', label: msg`Status`, format: 'choice', choices: websiteStatusChoices };
const price: Column = { key: 'price', label: msg`Price`, format: 'money' };
const updated: Column = { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true };

const fields: Field[] = [
  { name: 'name', label: msg`Name`, kind: 'text' },
  { name: 'domain', label: msg`Domain`, kind: 'text', hint: msg`For example restaurant-example.com, without https://` },
  { name: 'description', label: msg`Description`, kind: 'textarea' },
  {
    name: 'previewAddress',
    label: msg`Preview address`,
    kind: 'url',
    hint: msg`The website’s page that shows drafts, for example https://restaurant-example.com/preview. Preview on a page, post or food menu opens it.`,
  },
  ownerField,
  { name: 'partnerId', label: msg`Partner`, kind: 'select', source: partnerSource, optional: true, searchable: true },
  { name: 'status', label: msg`Status`, kind: 'choice', choices: websiteStatusChoices },
  { name: 'categoryId', label: msg`Category`, kind: 'select', source: categorySource, optional: true },
  { name: 'subcategoryId', label: msg`Subcategory`, kind: 'select', source: subcategorySource, optional: true },
  { name: 'typeId', label: msg`Website type`, kind: 'select', source: { resource: types }, optional: true },
  { name: 'hostingId', label: msg`Hosting`, kind: 'select', source: { resource: hosting }, optional: true },
  { name: 'technologyIds', label: msg`Technologies`, kind: 'references', source: { resource: technologies } },
  { name: 'languageIds', label: msg`Languages`, kind: 'references', source: { resource: languages } },
];

const view = (id: string) => `/websites/${id}`;

export const adminWebsitesScreen = {
  resource: websites,
  columns: [name, domain, { key: 'ownerId', label: msg`Owner`, format: 'lookup', source: accountSource }, status, { key: 'categoryId', label: msg`Category`, format: 'lookup', source: categorySource }, price, updated],
  fields,
  filters: [
    { key: 'status', label: msg`Status`, choices: websiteStatusChoices },
    { key: 'categoryId', label: msg`Category`, source: categorySource },
    { key: 'subcategoryId', label: msg`Subcategory`, source: subcategorySource },
  ],
  routes: { list: '/websites', create: '/websites/new', edit: (id: string) => `/websites/manage/${id}`, view },
} satisfies ResourceScreen;

/** Owners' and partners' own websites (the server lists only theirs). */
export const ownWebsitesScreen = {
  resource: websites,
  columns: [name, domain, status, price, updated],
  fields,
  filters: [{ key: 'status', label: msg`Status`, choices: websiteStatusChoices }],
  routes: { list: '/user/websites', create: '/websites/new', edit: (id: string) => `/websites/edit/${id}`, view },
} satisfies ResourceScreen;

const adminPages = screenPages(adminWebsitesScreen, <WebsiteTabs />);
const ownPages = screenPages(ownWebsitesScreen, <ComposeLink />);

/** The way to compose a website from services, above an owner's list; `add`: and to add one, below their only website's home. */
function ComposeLink({ add = false }: { add?: boolean }) {
  return (
    <div className={styles.actionsRow}>
      {add && (
        <Link href="/websites/new" className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
          <Plus aria-hidden size={18} />
          <Trans>Add website</Trans>
        </Link>
      )}
      <Link href="/websites-form" className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
        <Blocks aria-hidden size={18} />
        <Trans>Compose a website from services</Trans>
      </Link>
    </div>
  );
}

/** The admin's screen for admins, the owner's for everyone else. */
function useWebsitesScreen() {
  const { user } = useSession();
  return user && isAdmin(user) ? adminWebsitesScreen : ownWebsitesScreen;
}

/** /websites: every website for admins (with the catalogs' tabs), one's own for everyone else. */
export function WebsitesPage(props: PageProps) {
  const { user } = useSession();
  return user && isAdmin(user) ? <adminPages.List {...props} /> : <ownPages.List {...props} />;
}

/** The owner's websites as their list reads them first (the read-ahead its route started, this device's copy first). */
function useOwnWebsites() {
  const actor = useListActor(resourceStore, websites);
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  return { page, failed };
}

/**
 * /user/websites (spec §2), where an owner's app opens: with exactly one website, that website's
 * home itself — its content a tap away (issue 18) — ending with the ways to another website;
 * with several, or none, the list; until this device or the server knows which, neither.
 */
export const MyWebsitesPage = Object.assign(
  function MyWebsitesPage(props: PageProps) {
    const { page, failed } = useOwnWebsites();
    const only = page?.pagination.totalItems === 1 ? page.items[0] : undefined;
    if (only) return <WebsiteHome id={only.id} footer={<ComposeLink add />} />;
    if (!page && !failed) {
      return (
        <Loading />
      );
    }
    return <ownPages.List {...props} />;
  },
  { prefetch: () => prefetchList(resourceStore, websites, initialListQuery(websites)) },
);
export const WebsiteManagePage = adminPages.Edit;

/** /websites/new: admins choose owner, partner and status; for everyone else the server makes them the owner. */
export function WebsiteNewPage(props: PageProps) {
  const { user } = useSession();
  return user && isAdmin(user) ? <adminPages.New {...props} /> : <ownPages.New {...props} />;
}

/** /websites/edit/{id}: the owner's, the partner's, or a team member's with the settings flag (spec §2 Settings). */
export function WebsiteEditPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id: string }>();
  const screen = useWebsitesScreen();
  const { user } = useSession();
  // A team member has no list of websites: back means their website's home.
  const routed = user?.type === 'teammember' ? { ...screen, routes: { ...screen.routes, list: view(id) } } : screen;
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceFormPage key={id} screen={routed} title={title} id={id} />
    </ResourceStoreProvider>
  );
}
