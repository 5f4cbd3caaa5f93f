import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import { MODULES, type ModuleDeclaration, type ModuleRoute } from '../contract/modules';
import type { CmsModule, Feature } from '../contract/permissions';
import { isResource, type Resource } from '../contract/resource';
import type { ResourceScreen } from './resource/screen';
import type { PageProps } from './page';

// Each part of a website's CMS as the app shows it: its routes under /cms/:websiteId (its screens,
// in a chunk of their own) and its dashboard card. The route table, the screens' own routes and
// the CMS dashboard are made from these. A CMS module is its contract declaration
// (contract/modules.ts), its screens are the file it names under ./cms; the team is the one part
// that is not a module. This file is in the first chunk: it reaches the screens by loaders only.

type Loader = () => Promise<Readonly<Record<string, unknown>>>;
/** Files by their name without folder and extension (`./cms/gastro.tsx` → `gastro`). */
const byName = (files: Record<string, Loader>): Readonly<Record<string, Loader>> => Object.fromEntries(Object.entries(files).map(([file, load]) => [/([\w-]+)\.tsx?$/.exec(file)![1]!, load]));
/** Every screens file under ./cms, loaded when a route of it opens. */
const SCREENS = byName(import.meta.glob<Readonly<Record<string, unknown>>>(['./cms/*.tsx', '!./cms/*.test.tsx']));
/** Every file of entries, loaded when a card counts one. */
const CONTRACTS = byName(import.meta.glob<Readonly<Record<string, unknown>>>(['../contract/resources/*.ts', '!../contract/resources/*.test.ts']));

export interface SectionRoute {
  /** The whole pattern, `/cms/:websiteId/posts/edit/:postId`. */
  path: string;
  title: MessageDescriptor;
  load: () => Promise<ComponentType<PageProps>>;
}

export interface CmsSection {
  /** What opens it to a team member: a CMS module's level, a role flag, or being one of the website's people (its rows narrowed per person: the recycle bin). */
  access: { module: CmsModule } | { feature: Feature } | { members: true };
  routes: Readonly<Record<string, SectionRoute>>;
  /** The entries its screens change, by name: the sync panel loads their words from `screens`. */
  entries: readonly string[];
  /** Its screens file's exports. */
  screens: () => Promise<Readonly<Record<string, unknown>>>;
  card?: { resource: () => Promise<Resource>; open?: string; create?: string };
}

/** A part of the CMS from its declaration: `base` under /cms/:websiteId, its screens in ./cms/`declaration.screens`.tsx. */
function section(access: CmsSection['access'], base: string, name: MessageDescriptor, declaration: Omit<ModuleDeclaration, 'key' | 'name' | 'path' | 'delivery' | 'demo'>): CmsSection {
  const { routes, entries, card } = declaration;
  const screens = SCREENS[declaration.screens];
  const contract = CONTRACTS[declaration.contract];
  if (!screens || !contract) throw new Error(`No file ./cms/${declaration.screens}.tsx or contract/resources/${declaration.contract}.ts`);
  const page = (route: ModuleRoute) => async () => {
    const loaded = (await screens())[route.page];
    if (typeof loaded !== 'function') throw new Error(`./cms/${declaration.screens}.tsx has no page ${route.page}`);
    return loaded as ComponentType<PageProps>;
  };
  const sectionRoutes = Object.entries(routes).map(([key, route]) => [key, { path: `/cms/:websiteId/${base}${route.path}`, title: route.title ?? name, load: page(route) }]);
  return {
    access,
    routes: Object.fromEntries(sectionRoutes) as Record<string, SectionRoute>,
    entries,
    screens,
    card: card && { ...card, resource: () => contract().then((loaded) => Object.values(loaded).find((value) => isResource(value) && value.name === card.entry) as Resource) },
  };
}

/** The CMS modules, the team and the recycle bin, in the order the route table and the dashboard list them. */
export const CMS: Readonly<Record<CmsModule | 'team' | 'recycleBin' | 'activity', CmsSection>> = {
  ...(Object.fromEntries(MODULES.map((module) => [module.key, section({ module: module.key }, module.path, module.name, module)])) as Record<CmsModule, CmsSection>),
  team: section({ feature: 'team' }, 'team', msg`Team`, {
    entries: ['teamMembers', 'teamRoles'],
    contract: 'team',
    screens: 'team',
    routes: {
      list: { path: '', page: 'TeamPage' },
      add: { path: '/add', title: msg`Add team member`, page: 'TeamMemberNewPage' },
      edit: { path: '/edit/:memberId', title: msg`Edit team member`, page: 'TeamMemberEditPage' },
      roles: { path: '/roles', title: msg`Team roles`, page: 'TeamRolesPage' },
      addRole: { path: '/roles/add', title: msg`Add team role`, page: 'TeamRoleNewPage' },
      editRole: { path: '/roles/edit/:roleId', title: msg`Edit team role`, page: 'TeamRoleEditPage' },
    },
  }),
  recycleBin: section({ members: true }, 'recycle-bin', msg`Recycle bin`, {
    entries: ['recycleBin'],
    contract: 'recycle-bin',
    screens: 'recycle-bin',
    routes: { list: { path: '', page: 'RecycleBinPage' } },
  }),
  // Who changed what and when: its log shows each person the changes of what they may list.
  activity: section({ members: true }, 'activity', msg`Activity`, {
    entries: [],
    contract: 'activity',
    screens: 'activity',
    routes: { list: { path: '', page: 'ActivityPage' } },
  }),
};

export const CMS_SECTIONS: readonly CmsSection[] = Object.values(CMS);

/** The last `:param` of a route pattern: the one a record's id fills. */
export const lastParam = (path: string) => /:(\w+)$/.exec(path)?.[1] ?? 'id';

/** A route pattern with its last parameter filled (`/cms/:websiteId/posts/edit/:postId` → `/cms/:websiteId/posts/edit/42`). */
export const withRecord = (path: string, id: string) => path.replace(/:\w+$/, () => id);

/**
 * A screen's own routes (ResourceScreen `routes`) by the names of its section's routes: its list,
 * new and edited records, and a record's own page; the edit route's last parameter holds the id.
 */
export function screenRoutes({ routes }: CmsSection, names: { list: string; create?: string; edit: string; view?: string }): NonNullable<ResourceScreen['routes']> {
  const path = (name: string) => {
    const route = routes[name];
    if (!route) throw new Error(`No CMS route is named ${name}`);
    return route.path;
  };
  const edit = path(names.edit);
  const view = names.view && path(names.view);
  return {
    list: path(names.list),
    create: names.create && path(names.create),
    edit: (id: string) => withRecord(edit, id),
    view: view ? (id: string) => withRecord(view, id) : undefined,
    idParam: lastParam(edit),
  };
}
