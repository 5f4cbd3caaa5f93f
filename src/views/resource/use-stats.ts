import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { requestData } from '../../api/request';
import { messages } from '../../contract/messages';
import { RECENT_DAYS, StatsSchema, type Resource, type Stats } from '../../contract/resource';
import type { Stat } from '../../components/stat-boxes';
import { earlyReads, unheard } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import type { Filter } from './screen';

const readStats = (path: string, signal?: AbortSignal) => requestData(path, StatsSchema, { signal, fallback: messages.requestFailed });

const early = earlyReads<Promise<Stats>>();

/** Starts reading an entry's figures while its screen's code is still loading; `useStats` takes them. */
export function prefetchStats(resource: Pick<Resource, 'paths'>): void {
  const path = resource.paths.stats;
  if (path) early.put(path, unheard(readStats(path)));
}

/** An entry's figures from its `stats` path (spec §7 `/stats`), read again after queued changes reached the server; null while unknown or offline. */
export function useStats(resource: Pick<Resource, 'paths'>): Stats | null {
  const path = resource.paths.stats;
  const [stats, setStats] = useState<{ path: string; stats: Stats } | null>(null);
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    let ahead = early.take(path);
    const load = () =>
      (ahead ?? readStats(path, controller.signal)).then(
        (loaded) => setStats({ path, stats: loaded }),
        // Figures are a nicety: a list that loads without them is no failure worth a message.
        () => undefined,
      );
    void load();
    // Only the first load takes the early read: one after a sync asks again.
    ahead = undefined;
    window.addEventListener(SYNCED_EVENT, load);
    return () => {
      controller.abort();
      window.removeEventListener(SYNCED_EVENT, load);
    };
  }, [path]);
  return stats && stats.path === path ? stats.stats : null;
}

/** The figures a list shows beside its total: how many are new, and how many have each value of its choice filters. */
export function useStatFigures(resource: Pick<Resource, 'paths'>, filters: readonly Filter[]): Stat[] {
  const { t, i18n } = useLingui();
  const stats = useStats(resource);
  if (!stats) return [];
  return [
    { label: t`New (${RECENT_DAYS} days)`, value: String(stats.recent) },
    ...filters.flatMap((filter) =>
      'choices' in filter ? filter.choices.map((choice) => ({ label: i18n._(choice.label), value: String(stats.by[filter.key]?.[choice.value] ?? 0) })) : [],
    ),
  ];
}
