import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Blocks } from 'lucide-react';
import { Link, useParams } from 'wouter';
import type { PageProps } from '../../app/routes';
import { useSession } from '../../app/session';
import buttonStyles from '../../components/form/form.module.css';
import { isAdmin } from '../../contract/permissions';
import { categories, hosting, languages, subcategories, technologies, types } from '../../contract/resources/catalogs';
import { partners } from '../../contract/resources/partners';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/store';
import { accountSource, ownerField, websiteStatusChoices } from '../admin/choices';
import { WebsiteTabs } from '../admin/website-tabs';
import { screenPages } from '../resource/pages';
import { ResourceFormPage } from '../resource/resource-form';
import styles from '../resource/resource.module.css';
import type { Column, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';

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

/** The way to compose a website from services, above an owner's list. */
function ComposeLink() {
  return (
    <div className={styles.actionsRow}>
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
export const MyWebsitesPage = ownPages.List;
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
