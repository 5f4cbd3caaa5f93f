import { msg } from '@lingui/core/macro';
import { useParams } from 'wouter';
import type { PageProps } from '../page';
import { useSession } from '../../api/session';
import { isAdmin } from '../../contract/permissions';
import { partners } from '../../contract/resources/partners';
import { resourceStore } from '../../db/device-store';
import { accountSource, partnerStatusChoices, partnerTypeChoices } from '../admin/choices';
import { screenPages } from '../resource/screen-pages';
import { ResourceRecordPage } from '../resource/record-page';
import { ResourceFormPage } from '../resource/resource-form';
import type { Column, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';

// Spec §7 Partners: the admin's list of all partner records (/partners, /partners/manage/{id}) and
// an owner's or partner's own (/user/partners, /partners/edit/{id}); /partners/{id} for both.


const name: Column = { key: 'name', label: msg`Name`, sortable: true };
const type: Column = { key: 'type', label: msg`Partner type`, format: 'choice', choices: partnerTypeChoices };
const status: Column = { key: 'status', label: msg`Status`, format: 'choice', choices: partnerStatusChoices };
const email: Column = { key: 'email', label: msg`Email` };
const updated: Column = { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true };

const fields: Field[] = [
  { name: 'name', label: msg`Name`, kind: 'text' },
  { name: 'ownerId', label: msg`Account`, kind: 'select', source: accountSource, searchable: true },
  { name: 'type', label: msg`Partner type`, kind: 'choice', choices: partnerTypeChoices },
  { name: 'status', label: msg`Status`, kind: 'choice', choices: partnerStatusChoices },
  { name: 'email', label: msg`Email`, kind: 'email' },
  { name: 'phone', label: msg`Phone`, kind: 'text' },
  { name: 'website', label: msg`Website`, kind: 'url' },
  { name: 'address', label: msg`Address`, kind: 'textarea' },
];

const view = (id: string) => `/partners/${id}`;

export const adminPartnersScreen = {
  resource: partners,
  columns: [name, { key: 'ownerId', label: msg`Account`, format: 'lookup', source: accountSource }, type, status, email, updated],
  fields,
  filters: [
    { key: 'status', label: msg`Status`, choices: partnerStatusChoices },
    { key: 'type', label: msg`Partner type`, choices: partnerTypeChoices },
  ],
  routes: { list: '/partners', create: '/partners/new', edit: (id: string) => `/partners/manage/${id}`, view },
} satisfies ResourceScreen;

/** An owner's own records: new ones in a dialog over the list (spec §2 has no owner route for a new partner). */
export const ownPartnersScreen = {
  resource: partners,
  columns: [name, type, status, email, updated],
  fields,
  routes: { list: '/user/partners', edit: (id: string) => `/partners/edit/${id}`, view },
} satisfies ResourceScreen;

const adminPages = screenPages(adminPartnersScreen);
export const PartnersPage = adminPages.List;
export const PartnerNewPage = adminPages.New;
export const PartnerManagePage = adminPages.Edit;
export const MyPartnersPage = screenPages(ownPartnersScreen).List;

/** The admin's screen for admins, the owner's for everyone else. */
function usePartnersScreen() {
  const { user } = useSession();
  return user && isAdmin(user) ? adminPartnersScreen : ownPartnersScreen;
}

/** /partners/edit/{id}: any signed-in user, on their own records (the server answers 404 for others'). */
export function PartnerEditPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceFormPage key={id} screen={usePartnersScreen()} title={title} id={id} />
    </ResourceStoreProvider>
  );
}

/** /partners/{id}: a partner record; for a partner with one record this is their Settings (spec §2). */
export function PartnerPage() {
  const { id = '' } = useParams<{ id: string }>();
  const screen = usePartnersScreen();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceRecordPage key={id} screen={screen} id={id} back={{ href: screen.routes.list, label: msg`Partners` }} edit={screen.routes.edit(id)} />
    </ResourceStoreProvider>
  );
}
