import { useMemo } from 'react';
import { useParams } from 'wouter';
import { inScope, type Resource } from '../../contract/resource';

/**
 * The screen's entry on the route's scope: a route `/websites/:websiteId/…` fills the entry's
 * `:websiteId`. One copy per scope, so the machines and the read-ahead see the same object.
 */
export function useScopedResource<R extends Resource>(resource: R): R {
  const params = useParams<Record<string, string>>();
  const values = resource.scopeParams.map((name) => params[name] ?? '');
  const key = JSON.stringify(values);
  return useMemo(() => {
    const given: string[] = JSON.parse(key);
    return inScope(resource, Object.fromEntries(resource.scopeParams.map((name, index) => [name, given[index]!])));
  }, [resource, key]);
}
