import { useMemo } from 'react';
import { useParams } from 'wouter';
import { inScope, type Resource } from '../../contract/resource';

/**
 * Which route parameter holds each scope parameter of an entry: `{ websiteId: 'id' }` on the
 * CMS routes (`/cms/:id/…`, spec §2). A scope parameter not named here is read from the route
 * parameter of the same name.
 */
export type RouteScope = Readonly<Record<string, string>>;

/** The values of an entry's scope parameters, in their order, read from a route's parameters. */
export const routeValues = (resource: Resource, params: Readonly<Record<string, string | undefined>>, routeScope: RouteScope = {}) =>
  resource.scopeParams.map((name) => params[routeScope[name] ?? name] ?? '');

/** The values of `resource`'s scope parameters on the current route, in their order, as one key. */
export function useScopeKey(resources: readonly Resource[], routeScope: RouteScope = {}): string {
  const params = useParams<Record<string, string>>();
  return JSON.stringify(resources.map((resource) => routeValues(resource, params, routeScope)));
}

/** `resource` filled in with the values a scope key holds for it (its index among the key's resources). */
export function scopedBy<R extends Resource>(resource: R, key: string, index = 0): R {
  const values: string[] = (JSON.parse(key) as string[][])[index]!;
  return inScope(resource, Object.fromEntries(resource.scopeParams.map((name, at) => [name, values[at]!])));
}

/**
 * The screen's entry on the route's scope: on `/cms/:id/posts` with `{ websiteId: 'id' }`, the
 * posts of that website. One copy per scope, so the machines and the read-ahead see one object.
 */
export function useScopedResource<R extends Resource>(resource: R, routeScope?: RouteScope): R {
  const key = useScopeKey([resource], routeScope);
  return useMemo(() => scopedBy(resource, key), [resource, key]);
}
