import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useMemo, type ReactNode } from 'react';
import { useParams } from 'wouter';
import { categories, hosting, languages, subcategories, technologies, types } from '../../contract/resources/catalogs';
import { resourceStore } from '../../db/store';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import type { Column, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { WebsiteTabs } from './website-tabs';

// The six global catalogs an admin keeps (spec §1, §2), as data for the generic list and form.

const name: Column = { key: 'name', label: msg`Name`, sortable: true };
const description: Column = { key: 'description', label: msg`Description` };
const updated: Column = { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true };

const nameField: Field = { name: 'name', label: msg`Name`, kind: 'text' };
const descriptionField: Field = { name: 'description', label: msg`Description`, kind: 'textarea' };

const categorySource = { resource: categories };

/** Name and description: hosting options, technologies and website types. */
const named = (resource: ResourceScreen['resource']): ResourceScreen => ({
  resource,
  columns: [name, description, updated],
  fields: [nameField, descriptionField],
});

const hostingScreen = named(hosting);
const technologiesScreen = named(technologies);
const typesScreen = named(types);

export const categoriesScreen: ResourceScreen = {
  resource: categories,
  columns: [{ ...name, link: (row) => `/websites/categories/${row.id}/subcategories` }, description, updated],
  fields: [nameField, descriptionField],
};

export const subcategoriesScreen: ResourceScreen = {
  resource: subcategories,
  columns: [name, { key: 'categoryId', label: msg`Category`, format: 'lookup', source: categorySource }, description, updated],
  fields: [nameField, { name: 'categoryId', label: msg`Category`, kind: 'select', source: categorySource }, descriptionField],
  filters: [{ key: 'categoryId', label: msg`Category`, source: categorySource }],
};

export const languagesScreen = {
  resource: languages,
  columns: [
    name,
    { key: 'code', label: msg`Code`, sortable: true },
    { key: 'content', label: msg`Translated names`, format: 'count' },
    updated,
  ],
  fields: [
    nameField,
    { name: 'code', label: msg`Code`, kind: 'text' },
    { name: 'content', label: msg`Names in other languages`, kind: 'translations' },
  ],
  routes: { list: '/languages', create: '/languages/new', edit: (id: string) => `/languages/edit/${id}` },
} satisfies ResourceScreen;

interface PageProps {
  title: MessageDescriptor;
}

/** The app's data layer (Dexie and the outbox) for the screens of this chunk. */
function Catalog({ children }: { children: ReactNode }) {
  return <ResourceStoreProvider store={resourceStore}>{children}</ResourceStoreProvider>;
}

/** `tabs`: the catalogs of the website section show its tabs, so each is one tap from the others. */
const listPage = (screen: ResourceScreen, tabs: boolean) =>
  function CatalogListPage({ title }: PageProps) {
    return (
      <Catalog>
        {tabs && <WebsiteTabs />}
        <ResourceListPage screen={screen} title={title} />
      </Catalog>
    );
  };

export const HostingPage = listPage(hostingScreen, true);
export const TechnologiesPage = listPage(technologiesScreen, true);
export const TypesPage = listPage(typesScreen, true);
export const CategoriesPage = listPage(categoriesScreen, true);
export const SubcategoriesPage = listPage(subcategoriesScreen, true);
export const LanguagesPage = listPage(languagesScreen, false);

/** /websites/categories/:id/subcategories: the subcategories of one category; new ones belong to it. */
export function CategorySubcategoriesPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id: string }>();
  const fixed = useMemo(() => ({ categoryId: id }), [id]);
  return (
    <Catalog>
      <WebsiteTabs />
      <ResourceListPage
        key={id}
        screen={subcategoriesScreen}
        title={title}
        fixed={fixed}
        back={{ href: '/websites/categories', label: msg`Categories` }}
      />
    </Catalog>
  );
}

export function LanguageNewPage({ title }: PageProps) {
  return (
    <Catalog>
      <ResourceFormPage screen={languagesScreen} title={title} id={null} />
    </Catalog>
  );
}

export function LanguageEditPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <Catalog>
      <ResourceFormPage key={id} screen={languagesScreen} title={title} id={id} />
    </Catalog>
  );
}
