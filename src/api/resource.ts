import { z } from 'zod/mini';
import { fillPath, type QueryOf, type Resource } from '../contract/resource';
import { itemPath, queryString, resourceText } from './mutations';
import { ApiError, request, requestData } from './request';

/**
 * A resource's reads, derived from its registry entry (DESIGN §3): the entities are parsed with the
 * entry's schema and returned as the server sent them (`_id`), since the cache keeps them so; the
 * store maps `_id` → `id` when it shows them (db/view.ts toRow). Mutations never go from here: they
 * are described in api/mutations.ts and sent through the outbox (db/outbox.ts).
 */
export function resourceApi<R extends Resource>(resource: R) {
  const listData = z.array(resource.entity);

  return {
    async list(query: QueryOf<R>, signal?: AbortSignal) {
      const fallback = resourceText(resource, 'loadFailed');
      const envelope = await request<unknown>(fillPath(resource.paths.list ?? resource.paths.item, {}) + queryString(query as Record<string, unknown>), { signal, fallback });
      const data = listData.safeParse(envelope.data);
      if (!data.success || !envelope.pagination) throw new ApiError(fallback, 200, envelope);
      return { entities: data.data, pagination: envelope.pagination };
    },
    get(id: string, signal?: AbortSignal): Promise<z.output<R['entity']>> {
      return requestData<R['entity']>(itemPath(resource, id), resource.entity, { signal, fallback: resourceText(resource, 'loadFailed') });
    },
  };
}
