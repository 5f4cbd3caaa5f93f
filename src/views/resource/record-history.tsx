import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useParams } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import { currencyOf, dateTimeFormat } from '../../components/intl-formats';
import { Pagination } from '../../components/pagination';
import type { Changes, RevisionAction } from '../../contract/history';
import { allows, isAdmin } from '../../contract/permissions';
import { boundTo, type Resource } from '../../contract/resource';
import { activity, allActivity } from '../../contract/resources/activity';
import type { Row } from '../../db/resource-store';
import type { editorMachine } from '../../machines/editor.machine';
import { useConfirm } from '../../machines/feedback';
import type { ValueWords } from './field-text';
import { actorName, REVISION_ACTIONS_SAID, RevisionChanges } from './revision-changes';
import type { Field } from './screen';
import { useListPage } from './use-list-page';
import type { OptionLists } from './use-option-lists';
import { useValueNames } from './use-record-names';
import styles from './resource.module.css';
import { Loading } from './loading';

const PAGE_SIZE = 5;

interface RecordHistoryProps {
  actor: ActorRefFrom<typeof editorMachine>;
  /** The form's fields: a change is told by their labels, and a restore sets them. */
  fields: readonly Field[];
  /** The form's choices: the records a change names are named by them too. */
  options: OptionLists;
}

/**
 * A record's history under its form (issue 20): every change, newest first, who made it, when and
 * from which device, and what it changed in words. Any older version can be restored: the form
 * takes its values and saves them as an edit from the version on show (the editor machine's
 * `record.restore`), so a record changed meanwhile is a conflict, and offline it waits in the
 * outbox like any change. It reads the website's activity (or, in the admin area, everyone's),
 * filtered to the record: a list like any other, this device's copy first.
 */
export function RecordHistory({ actor, fields, options }: RecordHistoryProps) {
  const { user } = useSession();
  const { websiteId } = useParams<{ websiteId?: string }>();
  const [open, setOpen] = useState(false);
  const id = useSelector(actor, (snapshot) => snapshot.context.id);
  const log = websiteId ? boundTo(activity, { websiteId }) : user && isAdmin(user) ? allActivity : null;
  if (!log) return null;
  return (
    <details className={styles.history} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <Trans>History</Trans>
      </summary>
      {open && <HistoryPages log={log} id={id} actor={actor} fields={fields} options={options} />}
    </details>
  );
}

function HistoryPages(props: RecordHistoryProps & { log: Resource; id: string }) {
  const [page, setPage] = useState(1);
  return <HistoryPage key={page} {...props} page={page} onPage={setPage} />;
}

function HistoryPage({ log, id, page, onPage, actor, fields, options }: RecordHistoryProps & { log: Resource; id: string; page: number; onPage: (page: number) => void }) {
  const { i18n, t } = useLingui();
  const { user } = useSession();
  const confirm = useConfirm();
  const { page: read, problem } = useListPage(log, { recordId: id, page, limit: PAGE_SIZE });
  const resource = useSelector(actor, (snapshot) => snapshot.context.resource);
  const busy = useSelector(actor, (snapshot) => snapshot.matches('saving') || snapshot.status === 'done');
  const currency = useSelector(actor, (snapshot) => currencyOf(snapshot.context.values));
  const rows = read?.items ?? [];
  const name = useValueNames([{ fields, values: rows.flatMap((row) => changes(row).flatMap((change) => [asValues(change.field, change.before), asValues(change.field, change.after)])) }], options);
  const words: ValueWords = { i18n, name, currency };
  const canRestore = allows(resource.access.update, user);
  const when = dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });

  if (problem) return problem;
  if (!read) {
    return (
      <Loading />
    );
  }
  if (rows.length === 0) {
    return (
      <p className={styles.muted}>
        <Trans>No changes yet.</Trans>
      </p>
    );
  }

  const restore = async (row: Row) => {
    const at = when.format(new Date(row.createdAt));
    const yes = await confirm.confirm({
      title: t`Restore this version?`,
      message: t`The form takes the values it had on ${at} and saves them. Changes made since are undone; they stay in the history.`,
      confirmText: t`Restore`,
      cancelText: t`Cancel`,
    });
    if (yes) actor.send({ type: 'record.restore', values: (row.values ?? {}) as Record<string, unknown> });
  };

  return (
    <>
      <ol className={styles.revisions}>
        {rows.map((row, index) => {
          const action = row.action as RevisionAction;
          const newest = page === 1 && index === 0;
          const said = REVISION_ACTIONS_SAID.find((choice) => choice.value === action);
          return (
            <li key={row.id}>
              <p className={styles.revisionHead}>
                <strong>{actorName(row, i18n)}</strong> · <time dateTime={String(row.createdAt)}>{when.format(new Date(row.createdAt))}</time>
                {row.device ? ` · ${String(row.device)}` : ''}
              </p>
              {said && <p className={styles.revisionAction}>{i18n._(said.label)}</p>}
              {action === 'update' && <RevisionChanges changes={changes(row)} fields={fields} words={words} />}
              {canRestore && !newest && (action === 'update' || action === 'create') && row.values ? (
                <Button variant="secondary" disabled={busy} onClick={() => void restore(row)}>
                  <Trans>Restore this version</Trans>
                </Button>
              ) : null}
            </li>
          );
        })}
      </ol>
      <Pagination pagination={read.pagination} onPage={onPage} />
    </>
  );
}

const changes = (row: Row) => (row.changes ?? []) as Changes;

/** A change's value as the values a reference field names (for the names of the records it points at). */
const asValues = (field: string, value: unknown) => ({ [field]: value });
