import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { useConfirm } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { QueuedFile } from '../../components/queued-file';
import { UploadFailure } from '../../components/upload-failure';
import type { OutboxEntry } from '../../db/database';
import { resolve } from '../../db/sync';
import { refusalText } from '../../db/view';
import styles from './sync-status.module.css';
import type { ChangeWords } from './use-change-words';

interface EntryProps {
  entry: OutboxEntry;
  words: ChangeWords;
}

/** "dish “Soup”", or just "dish" for a record without a name. */
function useSubject({ item, title }: ChangeWords): string {
  const { t } = useLingui();
  return title ? t`${item} “${title}”` : item;
}

/** A queued upload: its file as it waits on the device, beside its words. */
function UploadSubject({ entry, text, id }: { entry: OutboxEntry; text: string; id?: string }) {
  return (
    <p id={id} className={`${styles.entryTitle} ${styles.upload}`}>
      <QueuedFile seq={entry.seq!} alt="" className={styles.thumb} />
      <span>{text}</span>
    </p>
  );
}

/** Runs one of the panel's answers to an entry, busy meanwhile; discarding asks first (the app's one confirm). */
function useAnswer(seq: number) {
  const { t } = useLingui();
  const { confirm } = useConfirm();
  const [busy, setBusy] = useState(false);
  async function run(action: (seq: number) => Promise<void>) {
    setBusy(true);
    try {
      await action(seq);
    } finally {
      setBusy(false);
    }
  }
  async function discard() {
    const sure = await confirm({
      type: 'danger',
      title: t`Discard this change?`,
      message: t`This change is removed from this device and never sent.`,
      confirmText: t`Discard`,
      cancelText: t`Keep it`,
    });
    if (sure) await run(resolve.discard);
  }
  return { busy, run, discard };
}

/** What a waiting change does, in one sentence, or its record's name above the fields it sets. */
function useHeadline(entry: OutboxEntry, words: ChangeWords): string {
  const { t } = useLingui();
  const { item, Item, items, title, changes } = words;
  switch (entry.kind) {
    case 'create':
      return title ? t`New ${item} “${title}”` : t`New ${item}`;
    case 'delete':
      return title ? t`${Item} “${title}” deleted` : t`${Item} deleted`;
    case 'reorder':
      return t`Order of the ${items} changed`;
    case 'upload':
      return title ? t`${Item} “${title}” is waiting to be uploaded` : t`${Item} is waiting to be uploaded`;
    default:
      if (changes.length > 0) return title || Item;
      return title ? t`${Item} “${title}” changed` : t`${Item} changed`;
  }
}

/** A change waiting to be sent, in words ("Pizza — Price 10,90 € → 11,50 €"), and a way to drop it. */
export function WaitingEntry({ entry, words }: EntryProps) {
  const headline = useHeadline(entry, words);
  const { busy, discard } = useAnswer(entry.seq!);
  const headlineId = useId();
  const listed = entry.kind === 'update' ? words.changes : [];
  return (
    <li className={styles.entry} data-status="pending">
      {entry.kind === 'upload' ? <UploadSubject entry={entry} text={headline} id={headlineId} /> : <p id={headlineId} className={styles.entryTitle}>{headline}</p>}
      {listed.length > 0 && (
        <ul className={styles.fieldChanges}>
          {listed.map(({ name, label, before, after }) => (
            <li key={name}>
              <span className={styles.field}>{label}</span> {before === null ? after : `${before} → ${after}`}
            </li>
          ))}
        </ul>
      )}
      <Button variant="secondary" busy={busy} className={styles.discard} aria-describedby={headlineId} onClick={() => void discard()}>
        <Trans>Discard</Trans>
      </Button>
    </li>
  );
}

/** One change that needs a decision: a conflict (keep mine / take theirs) or a refusal (retry / discard). */
export function SyncEntry({ entry, words }: EntryProps) {
  const { t, i18n } = useLingui();
  const subject = useSubject(words);
  const { busy, run, discard } = useAnswer(entry.seq!);

  if (entry.status === 'conflict') {
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
        {words.conflicts.length > 0 && (
          <dl className={styles.changes}>
            {words.conflicts.map(({ name, label, mine, theirs }) => (
              <div key={name} className={styles.change}>
                <dt className={styles.field}>{label}</dt>
                <dd className={styles.version}>
                  <span className={styles.whose}>
                    <Trans>Mine</Trans>
                  </span>{' '}
                  {mine}
                </dd>
                <dd className={styles.version}>
                  <span className={styles.whose}>
                    <Trans>Theirs</Trans>
                  </span>{' '}
                  {theirs}
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
      {upload ? <UploadSubject entry={entry} text={subject} /> : <p className={styles.entryTitle}>{subject}</p>}
      {upload && <UploadFailure message={message} status={entry.error?.status ?? 0} details={entry.error} />}
      {!upload && !repeated && <p className={styles.entryError}>{message}</p>}
      {!upload && fieldErrors.length > 0 && (
        <ul className={`${styles.fieldErrors} ${styles.entryError}`}>
          {fieldErrors.map((error) => {
            const label = words.fieldLabel(error.path);
            return <li key={`${error.path}:${error.message}`}>{label ? `${label}: ${error.message}` : error.message}</li>;
          })}
        </ul>
      )}
      <div className={styles.actions}>
        <Button busy={busy} onClick={() => void run(resolve.retry)}>
          <Trans>Retry</Trans>
        </Button>
        <Button variant="danger" busy={busy} onClick={() => void discard()}>
          <Trans>Discard</Trans>
        </Button>
      </div>
    </li>
  );
}
