import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { LIVE_SETTLE_MS, onLiveChange } from '../../api/live';
import { resourceText } from '../../api/resource-text';
import { concerns } from '../../contract/live';
import type { ActorRefFrom } from 'xstate';
import type { Resource } from '../../contract/resource';
import { readAhead, type ListPage, type ResourceStore, type Row } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { initialListQuery, listMachine } from '../../machines/list.machine';
import { storeActors, type ListQuery } from '../../machines/store-actors';
import { LoadProblem } from './offline-note';
import { useResourceStore } from './store-context';

/**
 * Back online, queued changes reached the server, or a change of its rows made anywhere else
 * (api/live.ts): the list asks the server again, and its answer replaces this device's copy.
 */
export function useRefreshOnSync(actor: ActorRefFrom<typeof listMachine>): void {
  useEffect(() => {
    const refresh = () => actor.send({ type: 'list.refresh' });
    // A burst of changes (a reorder, a menu restored with its dishes) is one read.
    let soon: ReturnType<typeof setTimeout> | undefined;
    const stopLive = onLiveChange((change) => {
      if (change !== 'reset' && !concerns(actor.getSnapshot().context.resource, change)) return;
      clearTimeout(soon);
      soon = setTimeout(refresh, LIVE_SETTLE_MS);
    });
    window.addEventListener('online', refresh);
    window.addEventListener(SYNCED_EVENT, refresh);
    return () => {
      clearTimeout(soon);
      stopLive();
      window.removeEventListener('online', refresh);
      window.removeEventListener(SYNCED_EVENT, refresh);
    };
  }, [actor]);
}

/**
 * The list machine of one list on screen, on `store`, kept fresh (useRefreshOnSync). Its first
 * page is read from this render on, or taken from its route's read-ahead (`prefetchList`): what
 * came before this first render (the server's answer, else this device's copy) is in it, not in
 * a render after the first paint that replaces "Loading…".
 */
export function useListActor(store: ResourceStore, resource: Resource, query: Partial<ListQuery> = {}): ActorRefFrom<typeof listMachine> {
  const [ahead] = useState(() => readAhead(store, resource, initialListQuery(resource, query)));
  const machine = useMemo(() => listMachine.provide({ actors: storeActors(ahead) }), [ahead]);
  const actor = useActorRef(machine, { input: { resource, query, shown: ahead.shown() } });
  useRefreshOnSync(actor);
  return actor;
}

/** A page of a list as a component shows it. */
export interface ListRead {
  /** This device's copy first, then the server's; null until either is there. */
  page: ListPage<Row> | null;
  /**
   * In place of the rows when the load failed with nothing to show: offline a quiet note, a
   * refusal its reason, each with "Try again"; null otherwise.
   */
  problem: ReactNode;
}

/**
 * One page of a list shown beside other things (the dashboard's latest changes, an owner's
 * websites): the list machine, as every list, with this device's copy first. The query is read
 * once; a component showing another one is keyed by it.
 */
export function useListPage(resource: Resource, query: Partial<ListQuery>): ListRead {
  const actor = useListActor(useResourceStore(), resource, query);
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const reason = useSelector(actor, (snapshot) => snapshot.context.error);
  const problem = failed && <LoadProblem failed={resourceText(resource, 'loadFailed')} reason={reason} onRetry={() => actor.send({ type: 'list.refresh' })} />;
  return { page, problem: problem || null };
}
