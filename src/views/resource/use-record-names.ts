import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import type { Resource } from '../../contract/resource';
import { heldRecords, uploadNames } from '../../db/device-store';
import { recordName, sourceOf, type ValueWords } from './field-text';
import type { Field, OptionSource } from './screen';
import type { OptionLists } from './use-option-lists';

/** Values and the fields they are read with: a change's, a conflict's two versions. */
export interface NamedUse {
  fields: readonly Field[];
  values: readonly (Record<string, unknown> | null | undefined)[];
}

/**
 * The names of the records that the reference fields of these values name, as this device holds
 * them, kept up to date as it learns of them (a list's lookup fetching one): fieldText's `name`.
 */
export function useRecordNames(uses: readonly NamedUse[]): ValueWords['name'] {
  const wanted = new Map<string, { resource: Resource; ids: Set<string> }>();
  for (const { fields, values } of uses) {
    for (const field of fields) {
      const source = sourceOf(field);
      if (!source) continue;
      const { resource } = source;
      const entry = wanted.get(resource.name) ?? { resource, ids: new Set<string>() };
      wanted.set(resource.name, entry);
      for (const value of values) {
        const named = value?.[field.name];
        for (const id of Array.isArray(named) ? named : [named]) if (typeof id === 'string' && id !== '') entry.ids.add(id);
      }
    }
  }
  const key = JSON.stringify([...wanted].map(([name, { ids }]) => [name, [...ids].toSorted()]));
  const held = useLiveQuery(
    async () =>
      new Map(
        await Promise.all(
          [...wanted.values()].map(async ({ resource, ids }) => [resource.name, { rows: await heldRecords(resource, [...ids]), uploads: await uploadNames(resource, [...ids]) }] as const),
        ),
      ),
    [key],
  );
  return useCallback<ValueWords['name']>(
    (source, id) => {
      if (!held) return undefined;
      const of = held.get(source.resource.name);
      const row = of?.rows.get(id);
      return row ? recordName(source, row) : (of?.uploads.get(id) ?? null);
    },
    [held],
  );
}

/**
 * useRecordNames, and where this device holds no such record, the name a form's choices give it (a
 * record named so even before this device holds it): what a conflict and a history name values by.
 */
export function useValueNames(uses: readonly NamedUse[], options?: OptionLists): ValueWords['name'] {
  const held = useRecordNames(uses);
  return useCallback<ValueWords['name']>(
    (source: OptionSource, id: string) => {
      const own = held(source, id);
      return own || (options?.[source.resource.name]?.find((option) => option.value === id && !option.missing)?.label ?? own);
    },
    [held, options],
  );
}
