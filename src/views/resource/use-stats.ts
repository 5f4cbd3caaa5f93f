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

/** Figures being read, and their value once they are in. */
interface StatsRead {
  read: Promise<Stats>;
  value?: Stats;
}

const early = earlyReads<StatsRead>();

/** Starts reading an entry's figures while its screen's code is still loading; `useStats` takes them. */
export function prefetchStats(resource: Pick<Resource, 'paths'>): void {
  const path = resource.paths.stats;
  if (!path) return;
  const ahead: StatsRead = { read: unheard(readStats(path)) };
  ahead.read.then(
    (value) => void (ahead.value = value),
    () => undefined,
  );
  early.put(path, ahead);
}

/** An entry's figures from its `stats` path (spec §7 `/stats`), read again after queued changes reached the server; null while unknown or offline. */
export function useStats(resource: Pick<Resource, 'paths'>): Stats | null {
  const path = resource.paths.stats;
  // Figures read ahead that are in already show in the first render.
  const [taken] = useState(() => (path ? { path, read: early.take(path) } : undefined));
  const [stats, setStats] = useState<{ path: string; stats: Stats } | null>(() => (taken?.read?.value ? { path: taken.path, stats: taken.read.value } : null));
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    let ahead = taken?.path === path ? taken.read?.read : undefined;
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
  }, [path, taken]);
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
