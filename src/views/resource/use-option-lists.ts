import { useEffect, useState } from 'react';
import { createActor } from 'xstate';
import type { SelectOption } from '../../components/searchable-select';
import { MAX_PAGE_SIZE } from '../../contract/resource';
import type { ListPage, Row } from '../../db/resource-store';
import { listMachine } from '../../machines/list.machine';
import { storeActors } from '../../machines/store-actors';
import { nameOf, type OptionSource } from './screen';
import { useResourceStore } from './store-context';

/** The options of each source, by its resource's name; a source not loaded yet has none. */
export type OptionLists = Readonly<Record<string, readonly SelectOption[]>>;

/**
 * The records of other resources as choices, read like any list (the list machine: this device's
 * copy at once, then the server's), sorted by their first sort field. One page of the largest size.
 * `sources` must keep its identity between renders (memoise it): a new array loads everything again.
 */
export function useOptionLists(sources: readonly OptionSource[]): OptionLists {
  const store = useResourceStore();
  const [lists, setLists] = useState<OptionLists>({});

  useEffect(() => {
    const machine = listMachine.provide({ actors: storeActors(store) });
    const actors = sources.map((source) => {
      const actor = createActor(machine, { input: { resource: source.resource, query: { limit: MAX_PAGE_SIZE } } });
      let shown: ListPage<Row> | null = null;
      actor.subscribe(({ context: { page } }) => {
        if (!page || page === shown) return;
        shown = page;
        const label = source.label ?? nameOf;
        const options = page.items.map((row) => ({ value: row.id, label: label(row) }));
        setLists((current) => ({ ...current, [source.resource.name]: options }));
      });
      return actor.start();
    });
    return () => actors.forEach((actor) => actor.stop());
  }, [sources, store]);

  return lists;
}
