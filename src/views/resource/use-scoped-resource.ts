import { useMemo } from 'react';
import { useParams } from 'wouter';
import { inScope, type Resource, type ScopeParams } from '../../contract/resource';

/**
 * Which route parameter holds each scope parameter of an entry: `{ websiteId: 'id' }` on the
 * CMS routes (`/cms/:id/…`, spec §2). A scope parameter not named here is read from the route
 * parameter of the same name.
 */
export type RouteScope = Readonly<Record<string, string>>;

/** An entry's scope as a route's parameters give it ('' where the route has none). */
export function routeScopeOf(resource: Resource, params: Readonly<Record<string, string | undefined>>, routeScope: RouteScope = {}): ScopeParams {
  return Object.fromEntries(resource.scopeParams.map((name) => [name, params[routeScope[name] ?? name] ?? '']));
}

/**
 * Each entry filled in for the current route's scope. The copies change only when the scope does,
 * so the machines and the read-ahead keep seeing one object per scope.
 */
export function useScopedResources<R extends Resource>(resources: readonly R[], routeScope?: RouteScope): R[] {
  const params = useParams<Record<string, string>>();
  const key = JSON.stringify(resources.map((resource) => routeScopeOf(resource, params, routeScope)));
  return useMemo(() => {
    const scopes = JSON.parse(key) as ScopeParams[];
    return resources.map((resource, index) => inScope(resource, scopes[index]!));
  }, [resources, key]);
}

/** The screen's entry on the route's scope: on `/cms/:id/posts` with `{ websiteId: 'id' }`, that website's posts. */
export function useScopedResource<R extends Resource>(resource: R, routeScope?: RouteScope): R {
  return useScopedResources(
    useMemo(() => [resource], [resource]),
    routeScope,
  )[0]!;
}
