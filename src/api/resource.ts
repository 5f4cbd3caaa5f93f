import { i18n } from '@lingui/core';
import { z } from 'zod';
import type { QueryOf, Resource } from '../contract/resource';
import type { ListPage, Row } from '../db/resource-store';
import { fixed, itemPath, queryString } from './mutations';
import { ApiError, request } from './request';

/**
 * A resource's API, derived from its registry entry (DESIGN §3): reads parse the entities with the
 * entry's schema and map `_id` → `id` once. Mutations never go from here: they are described in
 * api/mutations.ts and sent through the outbox (db/outbox.ts).
 */
export function resourceApi<R extends Resource>(resource: R) {
  const listData = z.array(resource.entity);

  function rows(entities: readonly Record<string, unknown>[]): Row<R>[] {
    return entities.map(({ _id, ...rest }) => ({ ...rest, id: _id }) as unknown as Row<R>);
  }

  return {
    /** The entities as the server sent them too, for the cache (its rows keep `_id`). */
    async listWire(query: QueryOf<R>, signal?: AbortSignal) {
      const fallback = fixed(resource, 'loadFailed');
      const envelope = await request<unknown>(resource.paths.list + queryString(query as Record<string, unknown>), { signal, fallback });
      const data = listData.safeParse(envelope.data);
      if (!data.success || !envelope.pagination) throw new ApiError(i18n._(fallback), 200, envelope);
      return { entities: data.data, pagination: envelope.pagination };
    },
    async list(query: QueryOf<R>, signal?: AbortSignal): Promise<ListPage<Row<R>>> {
      const { entities, pagination } = await this.listWire(query, signal);
      return { items: rows(entities), pagination };
    },
    async getWire(id: string, signal?: AbortSignal) {
      const fallback = fixed(resource, 'loadFailed');
      const envelope = await request<unknown>(itemPath(resource, id), { signal, fallback });
      const data = resource.entity.safeParse(envelope.data);
      if (!data.success) throw new ApiError(i18n._(fallback), 200, envelope);
      return data.data as z.output<R['entity']>;
    },
    async get(id: string, signal?: AbortSignal): Promise<Row<R>> {
      return rows([await this.getWire(id, signal)])[0]!;
    },
  };
}
