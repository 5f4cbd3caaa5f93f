import { useMemo } from 'react';
import { useParams } from 'wouter';
import { boundTo, type BoundParams, type Resource } from '../../contract/resource';

/**
 * An entry's bound parameters as a route's parameters give them, each read from the route
 * parameter of its name (`/cms/:websiteId/…`: the website); '' where the route has none.
 */
export function boundParamsOf(resource: Resource, params: Readonly<Record<string, string | undefined>>): BoundParams {
  return Object.fromEntries(resource.boundParams.map((name) => [name, params[name] ?? '']));
}

/**
 * Each entry bound to the website or parent record the current route names. The copies change
 * only when the route names others, so the machines and the read-ahead keep seeing one object
 * per binding.
 */
export function useBoundResources<R extends Resource>(resources: readonly R[]): R[] {
  const params = useParams<Record<string, string>>();
  const key = JSON.stringify(resources.map((resource) => boundParamsOf(resource, params)));
  return useMemo(() => {
    const bindings = JSON.parse(key) as BoundParams[];
    return resources.map((resource, index) => boundTo(resource, bindings[index]!));
  }, [resources, key]);
}

/** The screen's entry bound as the route says: on `/cms/:websiteId/posts`, that website's posts. */
export function useBoundResource<R extends Resource>(resource: R): R {
  return useBoundResources(useMemo(() => [resource], [resource]))[0]!;
}
