import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { requestData } from '../../api/request';
import { messages } from '../../contract/messages';
import { RECENT_DAYS, StatsSchema, type Resource, type Stats } from '../../contract/resource';
import type { Stat } from '../../components/stat-boxes';
import { SYNCED_EVENT } from '../../db/sync-messages';
import type { Filter } from './screen';

/** An entry's figures from its `stats` path (spec §7 `/stats`), read again after queued changes reached the server; null while unknown or offline. */
export function useStats(resource: Pick<Resource, 'paths'>): Stats | null {
  const path = resource.paths.stats;
  const [stats, setStats] = useState<{ path: string; stats: Stats } | null>(null);
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    const load = () =>
      requestData(path, StatsSchema, { signal: controller.signal, fallback: messages.requestFailed }).then(
        (loaded) => setStats({ path, stats: loaded }),
        // Figures are a nicety: a list that loads without them is no failure worth a message.
        () => undefined,
      );
    void load();
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
