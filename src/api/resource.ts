import { z } from 'zod/mini';
import { fillPath, type QueryOf, type Resource } from '../contract/resource';
import { itemPath, queryString } from './paths';
import { resourceText } from './resource-text';
import { ApiError, request, requestData } from './request';

/**
 * A resource's reads, derived from its registry entry (DESIGN §3): the entities are parsed with the
 * entry's schema and returned as the server sent them (`_id`), since the cache keeps them so; the
 * store maps `_id` → `id` when it shows them (db/view.ts toRow). Mutations never go from here: they
 * are described in db/outbox-entry.ts and sent through the outbox (db/outbox.ts).
 */
export function resourceApi<R extends Resource>(resource: R) {
  type Entity = z.output<R['entity']>;
  /**
   * A row as the entry's schema reads it; one it refuses but that is a row (stored before a limit
   * existed) as the server sent it: one such row must not take the whole list down.
   */
  const entityOf = (row: unknown): Entity | null => {
    const parsed = resource.entity.safeParse(row);
    if (parsed.success) return parsed.data as Entity;
    const { _id, version } = (row ?? {}) as { _id?: unknown; version?: unknown };
    return typeof _id === 'string' && typeof version === 'number' ? (row as Entity) : null;
  };

  return {
    async list(query: QueryOf<R>, signal?: AbortSignal) {
      const fallback = resourceText(resource, 'loadFailed');
      const envelope = await request<unknown>(fillPath(resource.paths.list ?? resource.paths.item, {}) + queryString(query as Record<string, unknown>), { signal, fallback });
      const entities = Array.isArray(envelope.data) ? envelope.data.map(entityOf) : null;
      if (!entities || entities.includes(null) || !envelope.pagination) throw new ApiError(fallback, 200, envelope);
      return { entities: entities as Entity[], pagination: envelope.pagination };
    },
    get(id: string, signal?: AbortSignal): Promise<z.output<R['entity']>> {
      return requestData<R['entity']>(itemPath(resource, id), resource.entity, { signal, fallback: resourceText(resource, 'loadFailed') });
    },
  };
}
