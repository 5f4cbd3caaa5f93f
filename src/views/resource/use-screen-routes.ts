import { useMemo } from 'react';
import { useParams } from 'wouter';
import type { ResourceScreen } from './screen';

type Routes = NonNullable<ResourceScreen['routes']>;

/** A route pattern with the current route's `:param`s filled in (`/cms/:websiteId/pages` → `/cms/42/pages`). */
export function fillRoute(pattern: string, params: Readonly<Record<string, string | undefined>>): string {
  return pattern.replace(/:(\w+)/g, (whole, name: string) => (params[name] ? encodeURIComponent(params[name]) : whole));
}

/**
 * The screen's routes as links from the current route: a CMS screen's routes name the website as
 * `:websiteId`, and this fills it in from where the person is.
 */
export function useScreenRoutes<R extends Routes | undefined>(routes: R): R {
  const params = useParams<Record<string, string>>();
  const key = JSON.stringify(params);
  return useMemo(() => {
    if (!routes) return routes;
    const current = JSON.parse(key) as Record<string, string>;
    const fill = (pattern: string) => fillRoute(pattern, current);
    return {
      ...routes,
      list: fill(routes.list),
      create: routes.create && fill(routes.create),
      edit: (id: string) => fill(routes.edit(id)),
      view: routes.view && ((id: string) => fill(routes.view!(id))),
    };
  }, [routes, key]);
}
