import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '../../components/form/button';
import { QueuedFile } from '../../components/queued-file';
import { UploadFailure } from '../../components/upload-failure';
import type { OutboxEntry } from '../../db/database';
import { resolve } from '../../db/sync';
import { refusalText } from '../../db/view';
import styles from './sync-status.module.css';

const MAX_VALUE = 60;

/** A field's value in a line of text: strings as they are, anything else as JSON, both cut short. */
function shown(value: unknown): string {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** The fields my change sets to something else than the server's version has (a reorder's are ids, not shown). */
function differences(entry: OutboxEntry): { field: string; mine: string; theirs: string }[] {
  if (entry.kind === 'reorder') return [];
  const { _id: _ignored, ...mine } = entry.body ?? {};
  const theirs = entry.current ?? {};
  return Object.entries(mine)
    .filter(([field, value]) => JSON.stringify(value) !== JSON.stringify((theirs as Record<string, unknown>)[field]))
    .map(([field, value]) => ({ field, mine: shown(value), theirs: shown((theirs as Record<string, unknown>)[field]) }));
}

/** "category “Drinks”", or just "category" for an entity without a name. */
export function useSubject(entry: Pick<OutboxEntry, 'label'>): string {
  const { t } = useLingui();
  const { item, title } = entry.label;
  return title ? t`${item} “${title}”` : item;
}

/** A queued upload: its file as it waits on the device, beside its name. */
export function UploadSubject({ entry, subject }: { entry: OutboxEntry; subject: string }) {
  return (
    <p className={`${styles.entryTitle} ${styles.upload}`}>
      <QueuedFile seq={entry.seq!} alt="" className={styles.thumb} />
      <span>{subject}</span>
    </p>
  );
}

/** A file waiting to be uploaded. */
export function PendingUpload({ entry }: { entry: OutboxEntry }) {
  const subject = useSubject(entry);
  return (
    <li className={styles.entry} data-status="pending">
      <UploadSubject entry={entry} subject={subject} />
    </li>
  );
}

/** One change that needs a decision: a conflict (keep mine / take theirs) or a refusal (retry / discard). */
export function SyncEntry({ entry }: { entry: OutboxEntry }) {
  const { t, i18n } = useLingui();
  const subject = useSubject(entry);
  const [busy, setBusy] = useState(false);
  const seq = entry.seq!;

  async function run(action: (seq: number) => Promise<void>) {
    setBusy(true);
    try {
      await action(seq);
    } finally {
      setBusy(false);
    }
  }

  if (entry.status === 'conflict') {
    const changed = differences(entry);
    return (
      <li className={styles.entry} data-status="conflict">
        <p className={styles.entryTitle}>{subject}</p>
        <p className={styles.entryText}>
          {entry.kind === 'reorder' ? (
            <Trans>Someone else changed the order in the meantime. Keep mine puts your order back, with what they added at the end.</Trans>
          ) : entry.kind === 'delete' ? (
            <Trans>You deleted it, but someone else changed it in the meantime.</Trans>
          ) : (
            <Trans>Someone else changed it in the meantime.</Trans>
          )}
        </p>
        {changed.length > 0 && (
          <dl className={styles.changes}>
            {changed.map(({ field, mine, theirs }) => (
              <div key={field} className={styles.change}>
                <dt className={styles.field}>{field}</dt>
                <dd className={styles.version}>
                  <span className={styles.whose}>
                    <Trans>Mine</Trans>
                  </span>{' '}
                  {mine || '—'}
                </dd>
                <dd className={styles.version}>
                  <span className={styles.whose}>
                    <Trans>Theirs</Trans>
                  </span>{' '}
                  {theirs || '—'}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <div className={styles.actions}>
          <Button busy={busy} onClick={() => void run(resolve.keepMine)}>
            <Trans>Keep mine</Trans>
          </Button>
          <Button variant="secondary" busy={busy} onClick={() => void run(resolve.takeTheirs)}>
            <Trans>Take theirs</Trans>
          </Button>
        </div>
      </li>
    );
  }

  const message = refusalText(entry, i18n) || t`The server refused this change.`;
  const fieldErrors = entry.error?.errors ?? [];
  // A server that repeats its one field error as the message says it once, with the field.
  const repeated = fieldErrors.length > 0 && fieldErrors.every((error) => error.message === message);
  const upload = entry.kind === 'upload';
  return (
    <li className={styles.entry} data-status="failed">
      {upload ? <UploadSubject entry={entry} subject={subject} /> : <p className={styles.entryTitle}>{subject}</p>}
      {upload && <UploadFailure message={message} status={entry.error?.status ?? 0} details={entry.error} />}
      {!upload && !repeated && <p className={styles.entryError}>{message}</p>}
      {!upload && fieldErrors.length > 0 && (
        <ul className={`${styles.fieldErrors} ${styles.entryError}`}>
          {fieldErrors.map((error) => (
            <li key={`${error.path}:${error.message}`}>
              <span className={styles.field}>{error.path.replace(/^body\./, '')}</span>: {error.message}
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <Button busy={busy} onClick={() => void run(resolve.retry)}>
          <Trans>Retry</Trans>
        </Button>
        <Button variant="danger" busy={busy} onClick={() => void run(resolve.discard)}>
          <Trans>Discard</Trans>
        </Button>
      </div>
    </li>
  );
}
