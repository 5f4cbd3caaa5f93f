import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType, ReactNode } from 'react';
import { useParams } from 'wouter';
import type { PageProps } from '../page';
import { readSession } from '../../api/session';
import { allows } from '../../contract/permissions';
import { boundTo, type Operation } from '../../contract/resource';
import { resourceStore } from '../../db/device-store';
import { prefetchList, prefetchRecord } from '../../db/resource-store';
import { prefetchStats } from './use-stats';
import { initialListQuery } from '../../machines/list.machine';
import { ResourceFormPage } from './resource-form';
import { listReady, ResourceListPage } from './resource-list-page';
import { preloadFieldKinds } from './field-kinds';
import { Allowed } from './no-access';
import type { ResourceScreen } from './screen';
import { ResourceStoreProvider } from './store-context';
import { boundParamsOf } from './use-bound-resource';

type FormScreen = ResourceScreen & { routes: NonNullable<ResourceScreen['routes']> };

/** A record's own records, listed under its form (a menu's items, a slider's slides): their screen's entry is bound to the record. */
interface Children {
  screen: ResourceScreen;
  title: MessageDescriptor;
}

interface ScreenPages {
  List: ComponentType<PageProps>;
  /** Only for a screen with form routes of its own (`routes`); without them the form is a dialog. */
  New: ComponentType<PageProps>;
  /** The record named by the route's `idParam` (`:id` unless the screen's routes say otherwise). */
  Edit: ComponentType<PageProps>;
}

/**
 * The pages of one screen, derived from its description: the list, and the new and edit pages of
 * a screen with form routes, each on the app's data layer. `above`: what the section shows over
 * each of them (the website section's tabs). A module's routes then only name these.
 */
export function screenPages(screen: FormScreen, above?: ReactNode, children?: Children): ScreenPages;
export function screenPages(screen: ResourceScreen, above?: ReactNode): Pick<ScreenPages, 'List'>;
export function screenPages(screen: ResourceScreen, above?: ReactNode, children?: Children): Partial<ScreenPages> {
  // A page the person's role does not open says so rather than failing to load (a team member's level, spec §6).
  const frame = (page: ReactNode, operation: Operation, title: PageProps['title']) => (
    <ResourceStoreProvider store={resourceStore}>
      {above}
      <Allowed policy={screen.resource.access[operation]} title={title}>
        {page}
      </Allowed>
    </ResourceStoreProvider>
  );
  /** The screen's entry bound to a route's parameters, when they name all it needs and the person may `operation` it: what a page reads ahead. */
  const readable = (operation: Operation, params: Readonly<Record<string, string | undefined>>) => {
    const bound = boundParamsOf(screen.resource, params);
    return Object.values(bound).includes('') || !allows(screen.resource.access[operation], readSession().user) ? null : boundTo(screen.resource, bound);
  };
  // Each page is ready (lazyScreen) once the chunks of its parts are in: it then shows whole, without a fallback first.
  const List = Object.assign(({ title }: PageProps) => frame(<ResourceListPage screen={screen} title={title} />, 'list', title), {
    ready: () => listReady(screen),
    /** The route's first page, asked for while the app still loads (routes.tsx preloadPath). */
    prefetch(params: Readonly<Record<string, string | undefined>>) {
      const resource = readable('list', params);
      if (!resource) return;
      prefetchList(resourceStore, resource, initialListQuery(resource));
      prefetchStats(resource);
    },
  });
  if (!screen.routes) return { List };
  const withRoutes = screen as FormScreen;
  const formReady = () => preloadFieldKinds(withRoutes.fields);
  return {
    List,
    New: Object.assign(({ title }: PageProps) => frame(<ResourceFormPage screen={withRoutes} title={title} id={null} />, 'create', title), { ready: formReady }),
    Edit: Object.assign(
      function Edit({ title }: PageProps) {
        const { [withRoutes.routes.idParam ?? 'id']: id = '' } = useParams<Record<string, string>>();
        return frame(
          <>
            <ResourceFormPage key={id} screen={withRoutes} title={title} id={id} />
            {children && <ResourceListPage key={`${id} children`} screen={children.screen} title={children.title} />}
          </>,
          'get',
          title,
        );
      },
      {
        ready: () => Promise.all([formReady(), children && listReady(children.screen)]),
        /** The record, asked for while the app still loads (routes.tsx preloadPath), as the list's first page is. */
        prefetch(params: Readonly<Record<string, string | undefined>>) {
          const id = params[withRoutes.routes.idParam ?? 'id'];
          const resource = readable('get', params);
          if (id && resource) prefetchRecord(resourceStore, resource, id);
        },
      },
    ),
  };
}
