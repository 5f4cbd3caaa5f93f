import { msg } from '@lingui/core/macro';
import { useMemo } from 'react';
import { useParams } from 'wouter';
import { categories, hosting, languages, subcategories, technologies, types } from '../../contract/resources/catalogs';
import { resourceStore } from '../../db/device-store';
import type { PageProps } from '../page';
import { screenPages } from '../resource/screen-pages';
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

export const hostingScreen = named(hosting);
export const technologiesScreen = named(technologies);
export const typesScreen = named(types);

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
    { key: 'content', label: msg`Translated into`, format: 'languages' },
    updated,
  ],
  fields: [
    nameField,
    { name: 'code', label: msg`Code`, kind: 'text' },
    { name: 'content', label: msg`Names in other languages`, kind: 'translations' },
  ],
  routes: { list: '/languages', create: '/languages/new', edit: (id: string) => `/languages/edit/${id}` },
} satisfies ResourceScreen;

const websiteSection = <WebsiteTabs />;

export const HostingPage = screenPages(hostingScreen, websiteSection).List;
export const TechnologiesPage = screenPages(technologiesScreen, websiteSection).List;
export const TypesPage = screenPages(typesScreen, websiteSection).List;
export const CategoriesPage = screenPages(categoriesScreen, websiteSection).List;
export const SubcategoriesPage = screenPages(subcategoriesScreen, websiteSection).List;

const languagePages = screenPages(languagesScreen);
export const LanguagesPage = languagePages.List;
export const LanguageNewPage = languagePages.New;
export const LanguageEditPage = languagePages.Edit;

/** /websites/categories/:id/subcategories: the subcategories of one category; new ones belong to it. */
export function CategorySubcategoriesPage({ title }: PageProps) {
  const { id = '' } = useParams<{ id: string }>();
  const fixed = useMemo(() => ({ categoryId: id }), [id]);
  return (
    <ResourceStoreProvider store={resourceStore}>
      <WebsiteTabs />
      <ResourceListPage
        key={id}
        screen={subcategoriesScreen}
        title={title}
        fixed={fixed}
        back={{ href: '/websites/categories', label: msg`Categories` }}
      />
    </ResourceStoreProvider>
  );
}
