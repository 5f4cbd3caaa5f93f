import { fromPromise } from 'xstate';
import type { QueryOf, Resource } from '../contract/resource';
import type { Cached, ListPage, Mutation, Outcome, ResourceStore, Row } from '../db/resource-store';

/** A list query as the list machine keeps it: paging and sorting always set, filters only when given. */
export interface ListQuery {
  page: number;
  limit: number;
  search?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  [filter: string]: string | number | undefined;
}

export interface ListRequest {
  resource: Resource;
  query: ListQuery;
}

export interface RecordRequest {
  resource: Resource;
  id: string;
}

export interface SubmitRequest {
  resource: Resource;
  mutation: Mutation;
}

/**
 * The list and editor machines' IO (ADR 005): each machine spawns these by name, and a screen hands
 * its ResourceStore in with `machine.provide({ actors: storeActors(store) })`.
 */
export function storeActors(store: ResourceStore) {
  return {
    readList: fromPromise<Cached<ListPage<Row>> | null, ListRequest>(({ input }) =>
      store.cachedList(input.resource, input.query as QueryOf<Resource>),
    ),
    fetchList: fromPromise<ListPage<Row>, ListRequest>(({ input, signal }) =>
      store.fetchList(input.resource, input.query as QueryOf<Resource>, signal),
    ),
    readRecord: fromPromise<Cached<Row> | null, RecordRequest>(({ input }) => store.cachedRecord(input.resource, input.id)),
    fetchRecord: fromPromise<Row, RecordRequest>(({ input, signal }) => store.fetchRecord(input.resource, input.id, signal)),
    submit: fromPromise<Outcome, SubmitRequest>(({ input }) => store.submit(input.resource, input.mutation)),
    dropLocal: fromPromise<void, RecordRequest>(({ input }) => store.dropLocal(input.resource, input.id)),
  };
}

const notProvided = () => Promise.reject(new Error('No ResourceStore: provide one with machine.provide({ actors: storeActors(store) })'));

/** The machines' defaults until a screen provides its store: every call fails loudly. */
export const unprovidedActors = storeActors({
  cachedList: notProvided,
  fetchList: notProvided,
  cachedRecord: notProvided,
  fetchRecord: notProvided,
  submit: notProvided,
  dropLocal: notProvided,
  reorder: notProvided,
});
