import { useLingui } from '@lingui/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createActor, type ActorRefFrom } from 'xstate';
import type { SelectOption } from '../../components/searchable-select';
import { messages } from '../../contract/messages';
import { MAX_PAGE_SIZE, type Resource } from '../../contract/resource';
import { withHeldRows } from '../../db/device-store';
import type { ListPage, ResourceStore, Row } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { listMachine } from '../../machines/list.machine';
import { storeActors, type ListQuery } from '../../machines/store-actors';
import { recordName } from './field-text';
import type { OptionSource } from './screen';
import { useResourceStore } from './store-context';
import { useBoundResources } from './use-bound-resource';

export interface Option extends SelectOption {
  /**
   * A record the screen names that is neither on this device nor on the server (or the server
   * cannot be asked): its label says "unknown", and it is never offered as a choice.
   */
  missing?: true;
}
/** The options of each source, by its resource's name; a source not loaded yet has none. */
export type OptionLists = Readonly<Record<string, readonly Option[]>>;
/** The ids whose names a screen shows (a page's lookups, a form's values), by resource name. */
export type WantedIds = Readonly<Record<string, readonly (string | null | undefined)[]>>;

export interface Options {
  lists: OptionLists;
  /** Asks the server for the choices of one resource that match what was typed into its dropdown. */
  search(resource: string, text: string): void;
}

type ListActor = ActorRefFrom<typeof listMachine>;
const NONE: WantedIds = {};
const FAILED: ListPage<Row> = { items: [], pagination: { currentPage: 1, totalPages: 1, totalItems: 0, itemsPerPage: 1 } };

const optionsOf = (source: OptionSource, rows: readonly Row[]): Option[] => rows.map((row) => ({ value: row.id, label: recordName(source, row) }));

/**
 * A list machine over `query` on every row this device holds (db/device-store.ts withHeldRows)
 * and then the server's answer, reporting each list it shows as options; with neither, no options.
 */
function optionActor(store: ResourceStore, source: OptionSource, resource: Resource, query: Partial<ListQuery>, shown: (options: Option[]) => void) {
  const actor = createActor(listMachine.provide({ actors: storeActors(withHeldRows(store)) }), { input: { resource, query } });
  let last: ListPage<Row> | null = null;
  actor.subscribe((snapshot) => {
    const page = snapshot.context.page ?? (snapshot.matches({ data: 'failed' }) ? FAILED : null);
    if (!page || page === last) return;
    last = page;
    shown(optionsOf(source, page.items));
  });
  return actor.start();
}

/**
 * The records of other resources as choices, read like any list (the list machine), bound to the
 * website or record the route names: every one this device holds at once (whichever screen
 * fetched it, and those made here and not sent yet), then the server's first page beside them;
 * what a dropdown's search finds on the server; and every record the screen names (a lookup past
 * the first page still shows its name), asked for by id when this device lacks it, or marked
 * `missing` when it is nowhere. The lists are read again when the connection is back or changes reached the server.
 * `sources` must keep its identity between renders (memoise it).
 */
export function useOptionLists(sources: readonly OptionSource[], wanted: WantedIds = NONE): Options {
  const { _ } = useLingui();
  const store = useResourceStore();
  const resources = useBoundResources(useMemo(() => sources.map((source) => source.resource), [sources]));
  const [browsed, setBrowsed] = useState<Record<string, Option[]>>({});
  const [named, setNamed] = useState<Record<string, Option[]>>({});
  const [missing, setMissing] = useState<Record<string, string[]>>({});
  const browsers = useRef(new Map<string, ListActor>());
  const asked = useRef(new Set<string>());
  // Answers to lookups for a website or record the screen has left are not its own.
  const generation = useRef(0);

  const bound = useMemo(() => sources.map((source, index) => ({ source, resource: resources[index]! })), [sources, resources]);

  useEffect(() => {
    const running = browsers.current;
    const seen = asked.current;
    for (const { source, resource } of bound) {
      const name = resource.name;
      running.set(name, optionActor(store, source, resource, { limit: MAX_PAGE_SIZE }, (options) => setBrowsed((current) => ({ ...current, [name]: options }))));
    }
    return () => {
      generation.current += 1;
      running.forEach((actor) => actor.stop());
      running.clear();
      seen.clear();
      setNamed({});
      setMissing({});
    };
  }, [bound, store]);

  // Back online, or changes reached the server: the choices are read again, the unknown asked again.
  useEffect(() => {
    const again = () => {
      browsers.current.forEach((actor) => actor.send({ type: 'list.refresh' }));
      setMissing((current) => {
        for (const [name, ids] of Object.entries(current)) ids.forEach((id) => asked.current.delete(`${name}:${id}`));
        return {};
      });
    };
    window.addEventListener('online', again);
    window.addEventListener(SYNCED_EVENT, again);
    return () => {
      window.removeEventListener('online', again);
      window.removeEventListener(SYNCED_EVENT, again);
    };
  }, []);

  const wantedKey = JSON.stringify(bound.map(({ resource }) => [...new Set((wanted[resource.name] ?? []).filter(Boolean))]));
  useEffect(() => {
    const ids: string[][] = JSON.parse(wantedKey);
    const current = generation.current;
    bound.forEach(({ source, resource }, index) => {
      const name = resource.name;
      // Asked by id once the first list is in, and only what it lacks: usually nothing.
      const first = browsed[name];
      if (!first) return;
      const known = new Set(first.map((option) => option.value));
      const nowhere = new Set(missing[name]);
      const lacking = ids[index]!.filter((id) => !known.has(id) && !nowhere.has(id) && !asked.current.has(`${name}:${id}`));
      for (let start = 0; start < lacking.length; start += MAX_PAGE_SIZE) {
        const batch = lacking.slice(start, start + MAX_PAGE_SIZE);
        batch.forEach((id) => asked.current.add(`${name}:${id}`));
        void store.fetchList(resource, { ids: batch.join(','), limit: MAX_PAGE_SIZE }).then(
          (page) => current === generation.current && found(name, batch, optionsOf(source, page.items)),
          () => current === generation.current && found(name, batch, []),
        );
      }
    });

    function found(name: string, batch: readonly string[], options: readonly Option[]) {
      setNamed((before) => {
        const byId = new Map((before[name] ?? []).map((option) => [option.value, option]));
        for (const option of options) byId.set(option.value, option);
        return { ...before, [name]: [...byId.values()] };
      });
      const answered = new Set(options.map((option) => option.value));
      const nowhere = batch.filter((id) => !answered.has(id));
      if (nowhere.length > 0) setMissing((before) => ({ ...before, [name]: [...(before[name] ?? []), ...nowhere] }));
    }
  }, [bound, store, wantedKey, browsed, missing]);

  const lists = useMemo(() => {
    const unknown = _(messages.unknownRecord);
    const merged: Record<string, Option[]> = {};
    for (const { resource } of bound) {
      const byId = new Map<string, Option>();
      for (const option of [...(browsed[resource.name] ?? []), ...(named[resource.name] ?? [])]) if (!byId.has(option.value)) byId.set(option.value, option);
      for (const id of missing[resource.name] ?? []) if (!byId.has(id)) byId.set(id, { value: id, label: unknown, missing: true });
      if (browsed[resource.name]) merged[resource.name] = [...byId.values()];
    }
    return merged;
  }, [bound, browsed, named, missing, _]);

  return useMemo(
    () => ({ lists, search: (resource: string, text: string) => browsers.current.get(resource)?.send({ type: 'list.search', search: text }) }),
    [lists],
  );
}
