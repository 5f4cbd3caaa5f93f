import { currencyOf } from '../../components/intl-formats';
import { useLingui } from '@lingui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import type { OutboxEntry } from '../../db/database';
import { valuesBefore } from '../../db/device-store';
import { fieldText, sameValue, type ValueWords } from '../resource/field-text';
import type { Field } from '../resource/screen';
import { useScreenWords } from '../resource/screen-registry';
import { useRecordNames } from '../resource/use-record-names';

/** One field of a change, in words: its label, what it was (when this device knew), what it becomes. */
export interface FieldChange {
  name: string;
  label: string;
  before: string | null;
  after: string;
}

/** A field where my change and the server's version differ, in words. */
export interface FieldConflict {
  name: string;
  label: string;
  mine: string;
  theirs: string;
}

export interface ChangeWords {
  /** What the record is ("dish"), in the interface language; "Dish" to start a sentence. */
  item: string;
  Item: string;
  /** Several of them ("dishes"), for a new order. */
  items: string;
  /** The record's name, or none. */
  title: string;
  /** The fields the change sets that its screen names, in the screen's order; none while no screen of it is known. */
  changes: FieldChange[];
  /** A conflict's fields that differ from the server's version. */
  conflicts: FieldConflict[];
  /** The label of the field a refusal names (`body.price`), or none. */
  fieldLabel(path: string): string | null;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
type Values = Record<string, unknown>;

/**
 * The waiting changes in words, in the interface language (issue 18): the words of the screens of
 * their resources (screen-registry.ts; with `load`, those not known yet are loaded), what each
 * change found on this device, the records their values name by their names. A change of a
 * resource no screen has described yet is named by the words it was queued with, and lists no
 * fields: never a field's name or a raw value.
 */
export function useChangeWords(entries: readonly OutboxEntry[], { load }: { load: boolean }): (entry: OutboxEntry) => ChangeWords {
  const { i18n } = useLingui();
  const screenOf = useScreenWords(load ? entries.map((entry) => entry.resource) : []);
  const before = useLiveQuery(() => valuesBefore(entries), [entries]);
  const fieldsOf = (entry: OutboxEntry): readonly Field[] => screenOf(entry.resource)?.fields ?? [];
  const name = useRecordNames(entries.map((entry) => ({ fields: fieldsOf(entry), values: [entry.body, entry.current, before?.get(entry.seq!)] })));

  return useCallback(
    (entry: OutboxEntry) => {
      const known = screenOf(entry.resource);
      const fields = known?.fields ?? [];
      const { _id: _ignored, ...mine }: Values = entry.body ?? {};
      const found = before?.get(entry.seq!);
      const theirs: Values = entry.current ?? {};
      const words = (values: Values | undefined): ValueWords => ({ i18n, name, currency: currencyOf(values, found) });
      const text = (field: Field, values: Values | undefined) => fieldText(field, values?.[field.name], words(values)) || '—';
      const set = entry.kind === 'reorder' ? [] : fields.filter((field) => field.name in mine);
      const item = known ? i18n._(known.resource.label.one) : entry.label.item;
      return {
        item,
        Item: capital(item),
        items: known ? i18n._(known.resource.label.other) : entry.label.item,
        title: entry.label.title,
        changes: set
          .filter((field) => !found || !sameValue(found[field.name], mine[field.name]))
          .map((field) => ({ name: field.name, label: i18n._(field.label), before: found ? text(field, found) : null, after: text(field, mine) })),
        conflicts: entry.current
          ? set.filter((field) => !sameValue(theirs[field.name], mine[field.name])).map((field) => ({ name: field.name, label: i18n._(field.label), mine: text(field, mine), theirs: text(field, theirs) }))
          : [],
        fieldLabel: (path: string) => {
          const field = fields.find((candidate) => candidate.name === path.replace(/^body\./, ''));
          return field ? i18n._(field.label) : null;
        },
      };
    },
    [i18n, screenOf, before, name],
  );
}
