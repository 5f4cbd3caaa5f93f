import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { Resource } from '../../contract/resource';
import { withHeldRows } from '../../db/device-store';
import type { ListPage, Row } from '../../db/resource-store';
import { listMachine } from '../../machines/list.machine';
import { storeActors, type ListQuery } from '../../machines/store-actors';
import { useResourceStore } from './store-context';
import { useRefreshOnSync } from './use-list-page';

/**
 * useListPage over every row of the list this device holds (db/device-store.ts withHeldRows), for a
 * list that names what other records refer to (a menu's categories and allergens): one made
 * offline, or fetched by another screen's query, is there offline too; then the server's answer.
 * Settled once it has rows to show or knows none are coming.
 */
export function useHeldList(resource: Resource, query: Partial<ListQuery>): { page: ListPage<Row> | null; settled: boolean } {
  const store = useResourceStore();
  const machine = useMemo(() => listMachine.provide({ actors: storeActors(withHeldRows(store)) }), [store]);
  const actor = useActorRef(machine, { input: { resource, query } });
  useRefreshOnSync(actor);
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  // Settled: rows to show, or none coming (nothing on this device and no server to ask).
  return { page, settled: page !== null || failed };
}
