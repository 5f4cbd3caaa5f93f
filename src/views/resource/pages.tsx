import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType, ReactNode } from 'react';
import { useParams } from 'wouter';
import type { PageProps } from '../../app/routes';
import { inScope } from '../../contract/resource';
import { prefetchList } from '../../db/resource-store';
import { resourceStore } from '../../db/store';
import { initialListQuery } from '../../machines/list.machine';
import { ResourceFormPage } from './resource-form';
import { ResourceListPage } from './resource-list-page';
import type { ResourceScreen } from './screen';
import { ResourceStoreProvider } from './store-context';
import { routeScopeOf } from './use-scoped-resource';

type FormScreen = ResourceScreen & { routes: NonNullable<ResourceScreen['routes']> };

/** A record's own records, listed under its form (a menu's items, a slider's slides): their screen's scope names the record. */
interface Children {
  screen: ResourceScreen;
  title: MessageDescriptor;
}

interface ScreenPages {
  List: ComponentType<PageProps>;
  /** Only for a screen with form routes of its own (`routes`); without them the form is a dialog. */
  New: ComponentType<PageProps>;
  /** The record named by the route's `:id`. */
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
  const frame = (page: ReactNode) => (
    <ResourceStoreProvider store={resourceStore}>
      {above}
      {page}
    </ResourceStoreProvider>
  );
  const List = Object.assign(({ title }: PageProps) => frame(<ResourceListPage screen={screen} title={title} />), {
    /** The route's first page, asked for while the app still loads (routes.tsx preloadPath). */
    prefetch(params: Readonly<Record<string, string | undefined>>) {
      const scope = routeScopeOf(screen.resource, params, screen.scope);
      if (Object.values(scope).includes('')) return;
      const resource = inScope(screen.resource, scope);
      prefetchList(resourceStore, resource, initialListQuery(resource));
    },
  });
  if (!screen.routes) return { List };
  const withRoutes = screen as FormScreen;
  return {
    List,
    New: ({ title }: PageProps) => frame(<ResourceFormPage screen={withRoutes} title={title} id={null} />),
    Edit: function Edit({ title }: PageProps) {
      const { [withRoutes.routes.idParam ?? 'id']: id = '' } = useParams<Record<string, string>>();
      return frame(
        <>
          <ResourceFormPage key={id} screen={withRoutes} title={title} id={id} />
          {children && <ResourceListPage key={`${id} children`} screen={children.screen} title={children.title} />}
        </>,
      );
    },
  };
}
