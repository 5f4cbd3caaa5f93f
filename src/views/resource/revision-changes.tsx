import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { Changes, RevisionAction } from '../../contract/history';
import type { Row } from '../../db/resource-store';
import { fieldText, plainText, type ValueWords } from './field-text';
import type { Choice, Field } from './screen';
import styles from './resource.module.css';
import { wordDiff } from './text-diff';

/** What a change did, in words: the activity log's filter and column, a history's lines. */
export const REVISION_ACTIONS_SAID: readonly (Choice & { value: RevisionAction })[] = [
  { value: 'create', label: msg`Created` },
  { value: 'update', label: msg`Changed` },
  { value: 'delete', label: msg`Deleted` },
  { value: 'reorder', label: msg`Reordered` },
];

const visitor = msg`A visitor of the website`;
const system = msg`The system`;

/** Who made a change (a row of the activity log): the person's name then; a visitor (a form sent) and the system (a job) in words. */
export function actorName(row: Row, i18n: I18n): string {
  if (row.actorKind === 'visitor') return i18n._(visitor);
  if (row.actorKind === 'system') return i18n._(system);
  return String(row.actorName ?? '');
}

/** A long text's change as the words taken out and put in; null where the two are better shown whole. */
function textChange(field: Field, before: unknown, after: unknown) {
  if (field.kind !== 'richText' && field.kind !== 'textarea') return null;
  const text = (value: unknown) => (field.kind === 'richText' ? plainText(String(value ?? '')) : String(value ?? ''));
  const parts = wordDiff(text(before), text(after));
  if (!parts) return null;
  return parts.map((part, index) => {
    const key = `${index}`;
    if (part.kind === 'removed') return <del key={key}>{part.text}</del>;
    if (part.kind === 'added') return <ins key={key}>{part.text}</ins>;
    return <span key={key}>{part.text}</span>;
  });
}

/** A change's fields a person can be told of (those the screen shows: never a key), with their values before and after in words. */
export function describedChanges(changes: Changes, fields: readonly Field[], words: ValueWords) {
  return changes.flatMap((change) => {
    const field = fields.find((candidate) => candidate.name === change.field);
    if (!field) return [];
    return [{ change, field, label: words.i18n._(field.label), before: fieldText(field, change.before, words) || '—', after: fieldText(field, change.after, words) || '—' }];
  });
}

/**
 * What a change did to a record, field by field, in words: each field by its label, its value
 * before and after as a person reads it (money, yes or no, a category by its name: fieldText), a
 * secret only as changed, a long text as the words taken out and put in.
 */
export function RevisionChanges({ changes, fields, words }: { changes: Changes; fields: readonly Field[]; words: ValueWords }) {
  const shown = describedChanges(changes, fields, words);
  if (shown.length === 0) return null;
  return (
    <dl className={styles.changes}>
      {shown.map(({ change, field, label, before, after }) => {
        const diff = change.secret ? null : textChange(field, change.before, change.after);
        return (
          <div key={field.name}>
            <dt>{label}</dt>
            <dd>
              {change.secret ? (
                <Trans>changed</Trans>
              ) : diff ? (
                <span className={styles.textChange}>{diff}</span>
              ) : (
                <>
                  <del>{before}</del> → <ins>{after}</ins>
                </>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
