import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { KeyRound } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { call } from '../../api/action';
import { useConfirm, useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { MAX_PAGE_SIZE } from '../../contract/resource';
import { admins, resetUserPassword, users } from '../../contract/resources/accounts';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/device-store';
import type { Row } from '../../db/resource-store';
import { screenPages } from '../resource/screen-pages';
import { ResourceRecordPage } from '../resource/record-page';
import styles from '../resource/resource.module.css';
import type { Choice, Column, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { useBusyAction } from '../resource/use-busy-action';
import { useListPage } from '../resource/use-list-page';
import { interfaceLanguageChoices, websiteStatusChoices } from './choices';

// Spec §7 Users and Admins as data: one table of accounts, two screens.

export const accountStatusChoices: readonly Choice[] = [
  { value: 'active', label: msg`Active` },
  { value: 'suspended', label: msg`Suspended` },
];
export const ownerTypeChoices: readonly Choice[] = [
  { value: 'user', label: msg`Owner` },
  { value: 'partner', label: msg`Partner` },
];
const adminTypeChoices: readonly Choice[] = [{ value: 'admin', label: msg`Admin` }, ...ownerTypeChoices];
const languageChoices: readonly Choice[] = [{ value: '', label: msg`The default language` }, ...interfaceLanguageChoices];

/** "Erika Mustermann", or nothing when neither name is known. */
export const personName = (row: Row) => [row.firstName, row.lastName].filter(Boolean).join(' ');

const columns = (types: readonly Choice[]): Column[] => [
  { key: 'email', label: msg`Email`, sortable: true },
  { key: 'lastName', label: msg`Name`, sortable: true, text: personName },
  { key: 'type', label: msg`Type`, format: 'choice', choices: types },
  { key: 'status', label: msg`Status`, format: 'choice', choices: accountStatusChoices },
  { key: 'verified', label: msg`Signed in`, text: (row) => (row.verified ? '✓' : '–') },
  { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
];

const fields = (types: readonly Choice[]): Field[] => [
  { name: 'email', label: msg`Email`, kind: 'email' },
  { name: 'firstName', label: msg`First name`, kind: 'text' },
  { name: 'lastName', label: msg`Last name`, kind: 'text' },
  { name: 'type', label: msg`Type`, kind: 'choice', choices: types },
  { name: 'status', label: msg`Status`, kind: 'choice', choices: accountStatusChoices },
  { name: 'language', label: msg`Language of mails`, kind: 'choice', choices: languageChoices },
  { name: 'username', label: msg`Username`, kind: 'text', hint: msg`Left empty, one is made from the email address.` },
];

export const usersScreen = {
  resource: users,
  columns: columns(ownerTypeChoices),
  fields: fields(ownerTypeChoices),
  filters: [
    { key: 'status', label: msg`Status`, choices: accountStatusChoices },
    { key: 'type', label: msg`Type`, choices: ownerTypeChoices },
  ],
  routes: { list: '/users', create: '/users/new', edit: (id: string) => `/users/edit/${id}`, view: (id: string) => `/users/${id}` },
} satisfies ResourceScreen;

export const adminsScreen = {
  resource: admins,
  columns: columns(adminTypeChoices),
  fields: fields(adminTypeChoices),
  filters: [{ key: 'status', label: msg`Status`, choices: accountStatusChoices }],
  routes: { list: '/admins', create: '/admins/new', edit: (id: string) => `/admins/edit/${id}`, view: (id: string) => `/admins/${id}` },
} satisfies ResourceScreen;

const userPages = screenPages(usersScreen);
export const UsersPage = userPages.List;
export const UserNewPage = userPages.New;
export const UserEditPage = userPages.Edit;
const adminPages = screenPages(adminsScreen);
export const AdminsPage = adminPages.List;
export const AdminNewPage = adminPages.New;
export const AdminEditPage = adminPages.Edit;

/** An owner's websites on their page: the websites list, narrowed to this owner. */
function OwnerWebsites({ ownerId }: { ownerId: string }) {
  const { i18n } = useLingui();
  const { page, problem } = useListPage(websites, { ownerId, limit: MAX_PAGE_SIZE });
  const list = page?.items ?? null;
  return (
    <section className={`${styles.card} ${styles.stack}`}>
      <h2 className={styles.subtitle}>
        <Trans>Websites</Trans>
      </h2>
      {list === null ? (
        (problem ?? (
          <p className={styles.muted}>
            <Trans>Loading…</Trans>
          </p>
        ))
      ) : list.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No websites yet.</Trans>
        </p>
      ) : (
        <ul className={styles.links}>
          {list.map((site) => (
            <li key={site.id}>
              <Link href={`/websites/${site.id}`}>{String(site.name)}</Link> <span className={styles.muted}>{String(site.domain)}</span>{' '}
              <span className={styles.badge}>{i18n._(websiteStatusChoices.find((choice) => choice.value === site.status)?.label ?? msg`Unknown`)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Mails the account a PIN to choose a new password with; the admin never sees a password. */
function ResetPasswordButton({ row }: { row: Row }) {
  const { t } = useLingui();
  const toast = useToast();
  const { confirm } = useConfirm();
  const { busy, act } = useBusyAction();
  const email = String(row.email);
  async function reset() {
    const yes = await confirm({ title: t`Reset password`, message: t`Mail ${email} a PIN to choose a new password?`, confirmText: t`Send PIN`, cancelText: t`Cancel`, type: 'info' });
    if (!yes) return;
    await act(async () => {
      const answer = await call(resetUserPassword, { params: { id: row.id } });
      toast.success(answer.message ?? t`The PIN has been mailed.`);
    });
  }
  return (
    <Button variant="secondary" busy={busy} onClick={() => void reset()}>
      <KeyRound aria-hidden size={18} />
      <Trans>Reset password</Trans>
    </Button>
  );
}

/** /users/{id}: an owner or partner, their websites, and a password reset by mail. */
export function UserPage() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceRecordPage key={id} screen={usersScreen} id={id} back={{ href: '/users', label: msg`Users` }} edit={usersScreen.routes.edit(id)}>
        {(row) => (
          <>
            <div className={styles.actionsRow}>
              <ResetPasswordButton row={row} />
            </div>
            <OwnerWebsites key={row.id} ownerId={row.id} />
          </>
        )}
      </ResourceRecordPage>
    </ResourceStoreProvider>
  );
}

/** /admins/{id}. */
export function AdminPage() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <ResourceRecordPage key={id} screen={adminsScreen} id={id} back={{ href: '/admins', label: msg`Admins` }} edit={adminsScreen.routes.edit(id)} />
    </ResourceStoreProvider>
  );
}
