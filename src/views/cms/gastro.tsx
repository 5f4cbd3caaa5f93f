import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Eye, FolderTree, ListChecks } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { z } from 'zod/mini';
import { CMS, screenRoutes } from '../cms-modules';
import type { PageProps } from '../page';
import { boundTo, MAX_PAGE_SIZE } from '../../contract/resource';
import { gastroAllergens, gastroCategories, gastroItems, gastroMenus } from '../../contract/resources/gastro';
import { resourceStore } from '../../db/device-store';
import type { Row } from '../../db/resource-store';
import { interfaceLanguageChoices } from '../admin/choices';
import { screenPages } from '../resource/screen-pages';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import resourceStyles from '../resource/resource.module.css';
import type { ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { useListPage } from '../resource/use-list-page';
import { CmsBackLink } from './cms-back-link';
import { contentStatusChoices } from './content-status';
import { allergenName, AllergenTools } from './gastro-allergens';
import { withMenuData } from './gastro-menu-view';
import styles from './gastro.module.css';
import { Loading } from '../resource/loading';

export { GastroMenuPage } from './gastro-menu-view';

// Spec §2 /cms/{id}/gastromenu and its routes; spec §7 Gastro menus. A website's menus, each with
// its categories and dishes in the order a person sets (ADR 012) and one allergen legend for all
// of them (the website's allergens).

const name = { name: 'name', label: msg`Name`, kind: 'text' } as const;
const description = { name: 'description', label: msg`Description`, kind: 'textarea' } as const;

export const menusScreen = {
  resource: gastroMenus,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'status', label: msg`Status`, format: 'choice', choices: contentStatusChoices },
    { key: 'language', label: msg`Language`, format: 'choice', choices: interfaceLanguageChoices },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    name,
    description,
    { name: 'status', label: msg`Status`, kind: 'choice', choices: contentStatusChoices },
    { name: 'language', label: msg`Language of the menu`, kind: 'choice', choices: interfaceLanguageChoices },
  ],
  filters: [{ key: 'status', label: msg`Status`, choices: contentStatusChoices }],
  // A new menu is a draft in the language the contract starts it in.
  schemaDefaults: true,
  routes: screenRoutes(CMS.gastro, { list: 'list', create: 'new', edit: 'edit', view: 'menu' }),
} satisfies ResourceScreen;

export const categoriesScreen = {
  resource: gastroCategories,
  columns: [
    { key: 'name', label: msg`Name` },
    { key: 'description', label: msg`Description` },
  ],
  fields: [name, description],
} satisfies ResourceScreen;

/**
 * Spec §3: an allergen's letter is upper-cased before it is sent (the contract's schema does it)
 * and left out when empty. A new allergen without one leaves it out of its create (the server
 * then stores none); an edit that empties it sends null, since an edit leaving it out would keep
 * the old letter: "omitted" is what a create says, "cleared" what an edit says.
 */
const identifier = gastroAllergens.update.shape.identifier;
const emptyAs = (none: null | undefined) =>
  z.pipe(
    z.transform((value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? none : value)),
    identifier,
  );
export const allergenEntry: typeof gastroAllergens = {
  ...gastroAllergens,
  create: z.extend(gastroAllergens.create, { identifier: emptyAs(undefined) }) as unknown as typeof gastroAllergens.create,
  update: z.extend(gastroAllergens.update, { identifier: emptyAs(null) }) as unknown as typeof gastroAllergens.update,
};

export const allergensScreen = {
  resource: allergenEntry,
  columns: [
    { key: 'identifier', label: msg`Letter`, sortable: true },
    // In the interface's language, as the menu prints it; sorted by letter, since the server sorts by the stored name.
    { key: 'name', label: msg`Name`, text: (row: Row) => allergenName(row, i18n.locale) },
    { key: 'content', label: msg`Translated into`, format: 'languages' },
  ],
  fields: [
    { name: 'identifier', label: msg`Letter`, kind: 'text', hint: msg`Printed beside the dishes, such as A; one to three letters or digits, or none` },
    name,
    { name: 'content', label: msg`Name in other languages`, kind: 'translations' },
  ],
  // The whole legend on one page, the very page the menu view and a dish's form read.
  pageSize: MAX_PAGE_SIZE,
} satisfies ResourceScreen;

const categorySource = { resource: gastroCategories };
/** An allergen as a dish's form offers it: "A · Cereals containing gluten", its name in the interface's language. */
const allergenSource = {
  resource: gastroAllergens,
  label: (row: Row) => [row.identifier, allergenName(row, i18n.locale)].filter(Boolean).join(' · '),
};
const notAvailable = msg`Not available`;
const availableText = msg`Available`;

export const itemsScreen = {
  // A dish is bound to its menu (the route's :menuId); its choices to the website (:websiteId) or the menu.
  resource: gastroItems,
  columns: [
    { key: 'name', label: msg`Name` },
    { key: 'price', label: msg`Price`, format: 'money' },
    { key: 'categoryId', label: msg`Category`, format: 'lookup', source: categorySource },
    { key: 'available', label: msg`Availability`, text: (row: Row) => i18n._(row.available === false ? notAvailable : availableText) },
    { key: 'thumbUrl', label: msg`Picture`, format: 'image', media: 'mediaId' },
  ],
  fields: [
    name,
    description,
    { name: 'price', label: msg`Price`, kind: 'money' },
    { name: 'currency', label: msg`Currency`, kind: 'text', hint: msg`Three letters, such as EUR or CHF` },
    { name: 'categoryId', label: msg`Category`, kind: 'select', source: categorySource, optional: true },
    { name: 'allergenIds', label: msg`Allergens`, kind: 'references', source: allergenSource },
    { name: 'available', label: availableText, kind: 'checkbox' },
    { name: 'mediaId', label: msg`Picture`, kind: 'picture', optional: true },
  ],
  // A new dish is available, in the default currency.
  schemaDefaults: true,
  routes: screenRoutes(CMS.gastro, { list: 'menu', create: 'newItem', edit: 'editItem' }),
} satisfies ResourceScreen;

const frame = (page: ReactNode, above: ReactNode = <CmsBackLink />) => (
  <ResourceStoreProvider store={resourceStore}>
    {above}
    {page}
  </ResourceStoreProvider>
);

const menuPages = screenPages(menusScreen, <CmsBackLink />);
const itemPages = screenPages(itemsScreen);
/** A menu read answered without the menu says so in spec §8's words. */
const menuDataStore = withMenuData(resourceStore);

/** /cms/{id}/gastromenu: the website's menus, each leading to its printed view. */
export const GastroMenusPage = menuPages.List;
export const GastroMenuNewPage = menuPages.New;

/** A menu's own links: its printed view, its categories, the allergens. */
function MenuLinks({ menuId }: { menuId: string }) {
  const { t } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const base = `/cms/${websiteId}/gastromenu/${menuId}`;
  return (
    <nav className={styles.toolbar} aria-label={t`This menu`}>
      <Link href={base} className={styles.toolLink}>
        <Eye aria-hidden size={16} />
        <Trans>Show the menu</Trans>
      </Link>
      <Link href={`${base}/categories`} className={styles.toolLink}>
        <FolderTree aria-hidden size={16} />
        <Trans>Categories</Trans>
      </Link>
      <Link href={`${base}/allergens`} className={styles.toolLink}>
        <ListChecks aria-hidden size={16} />
        <Trans>Allergens</Trans>
      </Link>
    </nav>
  );
}

/** /cms/{id}/gastromenu/edit/{menuId}: the menu's form, then its dishes in their order (drag, or up and down). */
export function GastroMenuEditPage({ title }: PageProps) {
  const { menuId = '' } = useParams<{ menuId: string }>();
  return frame(
    <>
      <ResourceStoreProvider store={menuDataStore}>
        <ResourceFormPage key={menuId} screen={menusScreen} title={title} id={menuId} />
      </ResourceStoreProvider>
      <MenuLinks menuId={menuId} />
      <ResourceListPage key={`${menuId} dishes`} screen={itemsScreen} title={msg`Dishes`} />
    </>,
  );
}

/** /cms/{id}/gastromenu/{menuId}/categories: the menu's categories, in the order the menu prints them. */
export function GastroMenuCategoriesPage({ title }: PageProps) {
  const { websiteId = '', menuId = '' } = useParams<{ websiteId: string; menuId: string }>();
  return frame(
    <ResourceListPage key={menuId} screen={categoriesScreen} title={title} back={{ href: `/cms/${websiteId}/gastromenu/${menuId}`, label: msg`Back to the menu` }} />,
    null,
  );
}

/**
 * /cms/{id}/gastromenu/categories: categories belong to a menu, so this asks which one, and
 * leads to its categories.
 */
export function GastroCategoriesPage({ title }: PageProps) {
  const { i18n: local } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const titleId = useId();
  const menus = useMemo(() => boundTo(gastroMenus, { websiteId }), [websiteId]);
  const { page, problem } = useListPage(menus, { limit: 100, sortBy: 'name', sortOrder: 'asc' });
  return frame(
    <section className={resourceStyles.page} aria-labelledby={titleId}>
      <h1 id={titleId} className={resourceStyles.title}>
        {local._(title)}
      </h1>
      <p className={resourceStyles.muted}>
        <Trans>Each menu has categories of its own. Choose the menu whose categories to arrange.</Trans>
      </p>
      {!page ? (
        (problem ?? (
          <Loading />
        ))
      ) : page.items.length === 0 ? (
        <p className={resourceStyles.muted}>
          <Trans>No food menus yet.</Trans>{' '}
          <Link href={`/cms/${websiteId}/gastromenu/new`}>
            <Trans>Add a food menu</Trans>
          </Link>
        </p>
      ) : (
        <ul className={styles.chooser} aria-labelledby={titleId}>
          {page.items.map((row) => (
            <li key={row.id}>
              <Link href={`/cms/${websiteId}/gastromenu/${row.id}/categories`}>{String(row.name)}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>,
  );
}

/**
 * /cms/{id}/gastromenu/allergens and /gastromenu/{menuId}/allergens: the website's allergens, the
 * one legend of all its menus, with the default set and the clean-up; from a menu, back to it.
 */
export function GastroAllergensPage({ title }: PageProps) {
  const { websiteId = '', menuId } = useParams<{ websiteId: string; menuId?: string }>();
  // The list is read again after a call changed the allergens or dishes.
  const [round, setRound] = useState(0);
  const allergens = useMemo(() => boundTo(gastroAllergens, { websiteId }), [websiteId]);
  const back = menuId ? { href: `/cms/${websiteId}/gastromenu/${menuId}`, label: msg`Back to the menu` } : undefined;
  return frame(
    <ResourceListPage
      key={round}
      screen={allergensScreen}
      title={title}
      back={back}
      tools={<AllergenTools allergens={allergens} websiteId={websiteId} onChanged={() => setRound((n) => n + 1)} />}
    />,
    back ? null : <CmsBackLink />,
  );
}

/** /cms/{id}/gastromenu/{menuId}/items/new and /items/edit/{itemId}: a dish's whole form; saved, back to the menu. */
export const GastroItemNewPage = itemPages.New;
export const GastroItemEditPage = itemPages.Edit;
