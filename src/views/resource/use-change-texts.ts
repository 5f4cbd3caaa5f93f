import { currencyOf } from '../../components/intl-formats';
import { useLingui } from '@lingui/react';
import { msg } from '@lingui/core/macro';
import { useCallback } from 'react';
import type { Row } from '../../db/resource-store';
import type { Changes } from '../../contract/history';
import { describedChanges } from './revision-changes';
import type { Column, Field } from './screen';
import { useScreenWords } from './screen-registry';
import { useRecordNames } from './use-record-names';

const changedSecret = msg`changed`;

const changesOf = (row: Row, column: Column): Changes => (Array.isArray(row[column.key]) ? (row[column.key] as Changes) : []);
const entryOf = (column: Column, row: Row) => (column.format === 'changes' && typeof row[column.entry] === 'string' ? (row[column.entry] as string) : null);
/** The fields of the screen of the row's entry, as far as one is known. */
const fieldsOf = (screenOf: ReturnType<typeof useScreenWords>, column: Column, row: Row): readonly Field[] => {
  const entry = entryOf(column, row);
  return (entry && screenOf(entry)?.fields) || [];
};

/**
 * The `changes` columns of a list in words (issue 20): each change's fields by the labels of the
 * screen of the entry the row names (screen-registry.ts, loaded when not known yet), their values
 * as fieldText says them, the records they name by their names. A field no screen of it shows, and
 * a row of an entry no screen describes, say nothing: never a key or a raw value.
 */
export function useChangeTexts(columns: readonly Column[], rows: readonly Row[] | undefined): (column: Column, row: Row) => string {
  const { i18n } = useLingui();
  const changing = columns.filter((column): column is Extract<Column, { format: 'changes' }> => column.format === 'changes');
  const wanted = changing.flatMap((column) => (rows ?? []).flatMap((row) => entryOf(column, row) ?? []));
  const screenOf = useScreenWords(wanted);
  const name = useRecordNames(
    changing.flatMap((column) =>
      (rows ?? []).map((row) => {
        const changes = changesOf(row, column);
        return {
          fields: fieldsOf(screenOf, column, row),
          values: [Object.fromEntries(changes.map((change) => [change.field, change.before])), Object.fromEntries(changes.map((change) => [change.field, change.after]))],
        };
      }),
    ),
  );
  return useCallback(
    (column: Column, row: Row) => {
      const fields = fieldsOf(screenOf, column, row);
      // Amounts in the record's own currency, as the change left it (a log row's `values`); euros where it names none.
      const words = { i18n, name, currency: currencyOf(row.values as Record<string, unknown> | undefined) };
      return describedChanges(changesOf(row, column), fields, words)
        .map(({ change, label, before, after }) => (change.secret ? `${label}: ${i18n._(changedSecret)}` : `${label}: ${before} → ${after}`))
        .join('; ');
    },
    [i18n, name, screenOf],
  );
}
