import { fillPath, type Resource } from '../contract/resource';

/** A list's query string: empty values are left out (spec §5), the rest in the order given. */
export function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Where a record lives: the item path of an entry bound to its website or parent (boundTo), with the record's id. */
export function itemPath(resource: Pick<Resource, 'paths' | 'itemParam'>, id: string): string {
  return fillPath(resource.paths.item, resource.itemParam ? { [resource.itemParam]: id } : {});
}
