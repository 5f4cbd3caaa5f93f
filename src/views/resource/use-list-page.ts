import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { Resource } from '../../contract/resource';
import type { ListPage, Row } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { listMachine } from '../../machines/list.machine';
import { storeActors, type ListQuery } from '../../machines/store-actors';
import { useResourceStore } from './store-context';

/** Back online, or queued changes reached the server: the list asks the server again, and its answer replaces this device's copy. */
export function useRefreshOnSync(actor: ActorRefFrom<typeof listMachine>): void {
  useEffect(() => {
    const refresh = () => actor.send({ type: 'list.refresh' });
    window.addEventListener('online', refresh);
    window.addEventListener(SYNCED_EVENT, refresh);
    return () => {
      window.removeEventListener('online', refresh);
      window.removeEventListener(SYNCED_EVENT, refresh);
    };
  }, [actor]);
}

/**
 * One page of a list shown beside other things (the dashboard's latest changes, an owner's
 * websites): the list machine, as every list, with this device's copy first. The query is read
 * once; a component showing another one is keyed by it.
 */
export function useListPage(resource: Resource, query: Partial<ListQuery>): ListPage<Row> | null {
  const store = useResourceStore();
  const machine = useMemo(() => listMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource, query } });
  useRefreshOnSync(actor);
  return useSelector(actor, (snapshot) => snapshot.context.page);
}
