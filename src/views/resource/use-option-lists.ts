import { useEffect, useMemo, useRef, useState } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import type { SelectOption } from '../../components/searchable-select';
import { MAX_PAGE_SIZE, titleOf, type Resource } from '../../contract/resource';
import type { ListPage, ResourceStore, Row } from '../../db/resource-store';
import { listMachine } from '../../machines/list.machine';
import { storeActors, type ListQuery } from '../../machines/store-actors';
import type { OptionSource } from './screen';
import { useResourceStore } from './store-context';
import { useScopedResources, type RouteScope } from './use-scoped-resource';

/** The options of each source, by its resource's name; a source not loaded yet has none. */
export type OptionLists = Readonly<Record<string, readonly SelectOption[]>>;
/** The ids whose names a screen shows (a page's lookups, a form's values), by resource name. */
export type WantedIds = Readonly<Record<string, readonly (string | null | undefined)[]>>;

export interface Options {
  lists: OptionLists;
  /** Asks the server for the choices of one resource that match what was typed into its dropdown. */
  search(resource: string, text: string): void;
}

type ListActor = ActorRefFrom<typeof listMachine>;
const NONE: WantedIds = {};

/** A list machine over `query` that reports each page it shows, as options. */
function optionActor(store: ResourceStore, source: OptionSource, resource: Resource, query: Partial<ListQuery>, shown: (options: SelectOption[]) => void) {
  const actor = createActor(listMachine.provide({ actors: storeActors(store) }), { input: { resource, query } });
  const label = source.label ?? ((row: Row) => titleOf(resource, row));
  let last: ListPage<Row> | null = null;
  actor.subscribe(({ context: { page } }) => {
    if (!page || page === last) return;
    last = page;
    shown(page.items.map((row) => ({ value: row.id, label: label(row) })));
  });
  return actor.start();
}

/**
 * The records of other resources as choices, read like any list (the list machine: this device's
 * copy at once, then the server's), on the route's scope: a first page to browse, what a dropdown's
 * search finds on the server, and, asked by id, every record the screen names (a lookup past the
 * first page still shows its name). `sources` must keep its identity between renders (memoise it).
 */
export function useOptionLists(sources: readonly OptionSource[], wanted: WantedIds = NONE, routeScope?: RouteScope): Options {
  const store = useResourceStore();
  const resources = useScopedResources(
    useMemo(() => sources.map((source) => source.resource), [sources]),
    routeScope,
  );
  const [browsed, setBrowsed] = useState<Record<string, SelectOption[]>>({});
  const [named, setNamed] = useState<Record<string, SelectOption[]>>({});
  const browsers = useRef(new Map<string, ListActor>());
  const lookups = useRef(new Map<string, ListActor>());
  const asked = useRef(new Set<string>());

  const scoped = useMemo(() => sources.map((source, index) => ({ source, resource: resources[index]! })), [sources, resources]);

  useEffect(() => {
    const running = browsers.current;
    const looking = lookups.current;
    const seen = asked.current;
    for (const { source, resource } of scoped) {
      const name = resource.name;
      running.set(name, optionActor(store, source, resource, { limit: MAX_PAGE_SIZE }, (options) => setBrowsed((current) => ({ ...current, [name]: options }))));
    }
    return () => {
      for (const actors of [running, looking]) {
        actors.forEach((actor) => actor.stop());
        actors.clear();
      }
      seen.clear();
      setNamed({});
    };
  }, [scoped, store]);

  const wantedKey = JSON.stringify(scoped.map(({ resource }) => [...new Set((wanted[resource.name] ?? []).filter(Boolean))]));
  useEffect(() => {
    const ids: string[][] = JSON.parse(wantedKey);
    scoped.forEach(({ source, resource }, index) => {
      const name = resource.name;
      // Asked by id once the first page is in, and only what it lacks: usually nothing.
      const first = browsed[name];
      if (!first) return;
      const known = new Set(first.map((option) => option.value));
      const missing = ids[index]!.filter((id) => !known.has(id) && !asked.current.has(`${name}:${id}`));
      for (let start = 0; start < missing.length; start += MAX_PAGE_SIZE) {
        const batch = missing.slice(start, start + MAX_PAGE_SIZE);
        batch.forEach((id) => asked.current.add(`${name}:${id}`));
        const merge = (options: SelectOption[]) =>
          setNamed((current) => {
            const byId = new Map((current[name] ?? []).map((option) => [option.value, option]));
            for (const option of options) byId.set(option.value, option);
            return { ...current, [name]: [...byId.values()] };
          });
        lookups.current.set(`${name}:${batch.join(',')}`, optionActor(store, source, resource, { ids: batch.join(','), limit: MAX_PAGE_SIZE }, merge));
      }
    });
  }, [scoped, store, wantedKey, browsed]);

  const lists = useMemo(() => {
    const merged: Record<string, SelectOption[]> = {};
    for (const { resource } of scoped) {
      const byId = new Map<string, SelectOption>();
      for (const option of [...(browsed[resource.name] ?? []), ...(named[resource.name] ?? [])]) if (!byId.has(option.value)) byId.set(option.value, option);
      merged[resource.name] = [...byId.values()];
    }
    return merged;
  }, [scoped, browsed, named]);

  return useMemo(
    () => ({ lists, search: (resource: string, text: string) => browsers.current.get(resource)?.send({ type: 'list.search', search: text }) }),
    [lists],
  );
}
