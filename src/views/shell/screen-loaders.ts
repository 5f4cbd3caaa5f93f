import { CMS_SECTIONS } from '../cms-modules';
import type { ResourceScreen } from '../resource/screen';

// Where the screens of each resource are defined, so the sync panel describes a change with its
// screen's words (field labels and kinds) also after the app was closed and opened again, before
// that screen was opened. A chunk each, as the routes load them: the CMS's parts name their entries
// and screens file (views/cms-modules.ts); the rest are listed here. (The media library's records
// are changed on its own screen: their words are its tiles', not a form's, and it exports none.)
type Loader = () => Promise<readonly ResourceScreen[]>;

/** A screen: a resource with the fields its form shows. */
const isScreen = (value: unknown): value is ResourceScreen => typeof value === 'object' && value !== null && 'resource' in value && 'fields' in value;

/** The screens of the CMS's parts, by the entries each part names: every screen its file exports of that entry. */
const cmsLoaders = CMS_SECTIONS.flatMap(({ entries, screens }) =>
  entries.map((name): [string, Loader] => [name, () => screens().then((loaded) => Object.values(loaded).filter((value) => isScreen(value) && value.resource.name === name) as ResourceScreen[])]),
);

export const SCREEN_LOADERS: Readonly<Record<string, Loader>> = {
  ...Object.fromEntries(cmsLoaders),
  seo: () => import('../cms/seo').then((m) => [m.seoScreen]),
  adminRecycleBin: () => import('../cms/recycle-bin').then((m) => [m.adminRecycleBinScreen]),
  websites: () => import('../websites/websites').then((m) => [m.ownWebsitesScreen, m.adminWebsitesScreen]),
  partners: () => import('../partners/partners').then((m) => [m.ownPartnersScreen, m.adminPartnersScreen]),
  users: () => import('../admin/accounts').then((m) => [m.usersScreen]),
  admins: () => import('../admin/accounts').then((m) => [m.adminsScreen]),
  categories: () => import('../admin/catalogs').then((m) => [m.categoriesScreen]),
  subcategories: () => import('../admin/catalogs').then((m) => [m.subcategoriesScreen]),
  languages: () => import('../admin/catalogs').then((m) => [m.languagesScreen]),
  hosting: () => import('../admin/catalogs').then((m) => [m.hostingScreen]),
  technologies: () => import('../admin/catalogs').then((m) => [m.technologiesScreen]),
  types: () => import('../admin/catalogs').then((m) => [m.typesScreen]),
  services: () => import('../admin/services').then((m) => [m.servicesScreen]),
  settings: () => import('../admin/settings/settings-page').then((m) => [m.settingsScreen]),
};
