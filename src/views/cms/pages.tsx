import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useParams } from 'wouter';
import { CMS, screenRoutes } from '../cms-modules';
import { call } from '../../api/action';
import type { PageProps } from '../page';
import { languageName } from '../../components/intl-formats';
import { DEFAULT_LANGUAGE } from '../../contract/languages';
import { listLanguageOptions } from '../../contract/resources/catalogs';
import { pages } from '../../contract/resources/cms';
import { resourceStore } from '../../db/device-store';
import type { Row } from '../../db/resource-store';
import { screenPages } from '../resource/screen-pages';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import type { Choice, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';
import { CmsBackLink } from './cms-back-link';
import { contentStatusChoices } from './content-status';
import { interfaceLanguageChoices } from '../admin/choices';

// Spec §2 /cms/{id}/pages, /pages/new, /pages/edit/{moduleId}; spec §7 CMS pages. A page's
// language is one of the languages catalog (its code); offline, before the catalog has been
// read, it is typed as a code instead.

const languageLabel = msg`Language`;
const statusFilter = { key: 'status', label: msg`Status`, choices: contentStatusChoices };

export const pagesScreen = {
  resource: pages,
  columns: [
    { key: 'title', label: msg`Title`, sortable: true },
    { key: 'slug', label: msg`Slug` },
    { key: 'status', label: msg`Status`, format: 'choice', choices: contentStatusChoices },
    { key: 'language', label: languageLabel, text: (row: Row) => (row.language ? languageName(String(row.language), i18n.locale) : '') },
    { key: 'order', label: msg`Order`, sortable: true },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'title', label: msg`Title`, kind: 'text' },
    { name: 'slug', label: msg`Slug`, kind: 'text', hint: msg`The last part of the page’s address, such as about-us; left empty, it is made from the title` },
    { name: 'status', label: msg`Status`, kind: 'choice', choices: contentStatusChoices },
    { name: 'language', label: languageLabel, kind: 'text', hint: msg`A language code such as en or de` },
    { name: 'content', label: msg`Content`, kind: 'richText' },
    { name: 'metaTitle', label: msg`Title for search engines`, kind: 'text', hint: msg`Left empty, search engines show the title; about 60 characters` },
    { name: 'metaDescription', label: msg`Description for search engines`, kind: 'textarea' },
    { name: 'order', label: msg`Order`, kind: 'integer' },
  ],
  filters: [statusFilter],
  routes: screenRoutes(CMS.pages, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

type PagesScreen = ResourceScreen & { routes: NonNullable<ResourceScreen['routes']> };

/** The list's read-ahead while the app loads (routes.tsx preloadPath), as every screen's list has it. */
const { prefetch } = screenPages(pagesScreen).List as { prefetch?: (params: Readonly<Record<string, string | undefined>>) => void };

/** The catalog's languages once read: the same for every page of the session. */
let catalog: readonly Choice[] | null = null;

/** The content languages (`GET /api/languages/dropdown`), the installation's default first; [] when they cannot be read. */
function useLanguageChoices(): readonly Choice[] | null {
  const [choices, setChoices] = useState(catalog);
  useEffect(() => {
    if (catalog) return;
    let live = true;
    call(listLanguageOptions, {}).then(
      ({ data }) => {
        const sorted = data.toSorted((a, b) => Number(b.code === DEFAULT_LANGUAGE) - Number(a.code === DEFAULT_LANGUAGE));
        // A language's name is the catalog's data, not a message of the app: its descriptor only carries it.
        catalog = sorted.map((language) => ({ value: language.code, label: { id: `language:${language.code}`, message: `${language.name} (${language.code})` } }));
        if (live) setChoices(catalog);
      },
      () => live && setChoices([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return choices;
}

/** The pages screen with the catalog's languages to choose from and filter by, once it is read. */
function usePagesScreen(): PagesScreen | null {
  const read = useLanguageChoices();
  return useMemo(() => {
    let choices = read;
    if (!choices) return null;
    // No catalog to read (none made yet, or offline before it was ever read): the interface's languages.
    if (choices.length === 0) choices = interfaceLanguageChoices;
    return {
      ...pagesScreen,
      fields: pagesScreen.fields.map((field): Field => (field.name === 'language' ? { name: 'language', label: languageLabel, kind: 'choice', choices } : field)),
      filters: [statusFilter, { key: 'language', label: languageLabel, choices }],
    };
  }, [read]);
}

const frame = (page: ReactNode) => (
  <ResourceStoreProvider store={resourceStore}>
    <CmsBackLink />
    {page}
  </ResourceStoreProvider>
);

/** The list: shown at once, its language filter added when the catalog is read. */
export const PagesPage = Object.assign(
  function PagesPage({ title }: PageProps) {
    const screen = usePagesScreen() ?? pagesScreen;
    return frame(<ResourceListPage screen={screen} title={title} />);
  },
  { prefetch },
);

/** A new page's form waits for the catalog: its first language is the one a new page starts in. */
export function PageNewPage({ title }: PageProps) {
  const screen = usePagesScreen();
  return frame(screen && <ResourceFormPage screen={screen} title={title} id={null} />);
}

export function PageEditPage({ title }: PageProps) {
  const { moduleId = '' } = useParams<{ moduleId: string }>();
  const screen = usePagesScreen();
  return frame(screen && <ResourceFormPage key={moduleId} screen={screen} title={title} id={moduleId} />);
}
