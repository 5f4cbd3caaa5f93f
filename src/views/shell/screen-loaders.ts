import type { ResourceScreen } from '../resource/screen';

// Where the screens of each resource are defined, so the sync panel describes a change with its
// screen's words (field labels and kinds) also after the app was closed and opened again, before
// that screen was opened. A chunk each, as the routes load them. (The media library's records are
// changed on its own screen: their words are its tiles', not a form's.)
export const SCREEN_LOADERS: Readonly<Record<string, () => Promise<readonly ResourceScreen[]>>> = {
  gastroMenus: () => import('../cms/gastro').then((m) => [m.menusScreen]),
  gastroCategories: () => import('../cms/gastro').then((m) => [m.categoriesScreen]),
  gastroAllergens: () => import('../cms/gastro').then((m) => [m.allergensScreen]),
  gastroItems: () => import('../cms/gastro').then((m) => [m.itemsScreen]),
  posts: () => import('../cms/posts').then((m) => [m.postsScreen]),
  postCategories: () => import('../cms/posts').then((m) => [m.postCategoriesScreen]),
  pages: () => import('../cms/pages').then((m) => [m.pagesScreen]),
  menus: () => import('../cms/menus').then((m) => [m.menusScreen]),
  menuItems: () => import('../cms/menus').then((m) => [m.menuItemsScreen]),
  heroSliders: () => import('../cms/sliders').then((m) => [m.heroSlidersScreen]),
  heroSlides: () => import('../cms/sliders').then((m) => [m.heroSlidesScreen]),
  gallerySliders: () => import('../cms/sliders').then((m) => [m.gallerySlidersScreen]),
  gallerySlides: () => import('../cms/sliders').then((m) => [m.gallerySlidesScreen]),
  seo: () => import('../cms/seo').then((m) => [m.seoScreen]),
  smtpSettings: () => import('../cms/contact-forms').then((m) => [m.smtpScreen]),
  mailTemplates: () => import('../cms/contact-forms').then((m) => [m.templateScreen]),
  contactForms: () => import('../cms/contact-forms').then((m) => [m.contactFormsScreen]),
  contactSubmissions: () => import('../cms/contact-forms').then((m) => [m.submissionsScreen]),
  teamMembers: () => import('../cms/team').then((m) => [m.membersScreen]),
  teamRoles: () => import('../cms/team').then((m) => [m.rolesScreen]),
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
