import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Resource } from '../../contract/resource';
import type { Field, ResourceScreen } from './screen';

/**
 * The words of a resource's screens, by its name: its label and its fields (their labels and
 * kinds). The sync panel and a conflict describe a change with them, wherever they are shown and
 * whichever screen made it, also after the app was closed and opened again. A screen is known once
 * it has registered: its form does when it opens (resource-form.tsx); the app names where the
 * others are (registerScreenLoaders), and they are loaded when a change of theirs is described.
 */
export interface ScreenWords {
  resource: Resource;
  fields: readonly Field[];
}

// Replaced, not changed, by a registration: a hook reading it sees a new one.
let known: ReadonlyMap<string, ScreenWords> = new Map();
const listeners = new Set<() => void>();

/** Registers screens; several of one resource (an admin's and an owner's) add the fields the first lacks. */
export function registerScreens(...screens: readonly ResourceScreen[]): void {
  const next = new Map(known);
  let changed = false;
  for (const { resource, fields } of screens) {
    const before = next.get(resource.name);
    const names = new Set(before?.fields.map((field) => field.name));
    const added = fields.filter((field) => !names.has(field.name));
    if (before && added.length === 0) continue;
    next.set(resource.name, { resource: before?.resource ?? resource, fields: [...(before?.fields ?? []), ...added] });
    changed = true;
  }
  if (!changed) return;
  known = next;
  listeners.forEach((listener) => listener());
}

type Loader = () => Promise<readonly ResourceScreen[]>;
const loaders = new Map<string, Loader>();
const loading = new Set<string>();

/** Where the screens of each resource are, by its name: loaded (and registered) when a change of it is to be described. */
export function registerScreenLoaders(where: Readonly<Record<string, Loader>>): void {
  for (const [name, load] of Object.entries(where)) loaders.set(name, load);
}

function loadScreens(resourceName: string): void {
  const loader = loaders.get(resourceName);
  if (!loader || known.has(resourceName) || loading.has(resourceName)) return;
  loading.add(resourceName);
  loader().then(
    (screens) => registerScreens(...screens),
    // Not loaded (offline before its chunk was ever fetched): asked again next time.
    () => loading.delete(resourceName),
  );
}

/** The words of a resource's screens, or none while no screen of it has registered. */
export function screenWords(resourceName: string): ScreenWords | undefined {
  return known.get(resourceName);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * screenWords, read again when a screen registers; the screens of `wanted` resources that are not
 * known yet are loaded where the app said they are.
 */
export function useScreenWords(wanted: readonly string[] = []): typeof screenWords {
  const current = useSyncExternalStore(subscribe, () => known);
  const key = [...new Set(wanted)].join(',');
  useEffect(() => {
    if (key) key.split(',').forEach(loadScreens);
  }, [key]);
  return useMemo(() => (resourceName: string) => current.get(resourceName), [current]);
}
