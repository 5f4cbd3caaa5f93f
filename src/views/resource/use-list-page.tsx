import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { LIVE_SETTLE_MS, onLiveChange } from '../../api/live';
import { resourceText } from '../../api/resource-text';
import { concerns } from '../../contract/live';
import type { ActorRefFrom } from 'xstate';
import type { Resource } from '../../contract/resource';
import type { ListPage, Row } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { listMachine } from '../../machines/list.machine';
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
  const store = useResourceStore();
  const machine = useMemo(() => listMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource, query } });
  useRefreshOnSync(actor);
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const reason = useSelector(actor, (snapshot) => snapshot.context.error);
  const problem = failed && <LoadProblem failed={resourceText(resource, 'loadFailed')} reason={reason} onRetry={() => actor.send({ type: 'list.refresh' })} />;
  return { page, problem: problem || null };
}
