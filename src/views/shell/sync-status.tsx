import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Cloud, CloudAlert, CloudOff, CloudUpload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { useDismiss } from '../../components/use-dismiss';
import type { OutboxEntry, OutboxStatus } from '../../db/database';
import { outcomeClaimed } from '../../db/device-store';
import { requestSync, startSync } from '../../db/sync';
import { useSyncStatus, type SyncStatus as Status } from '../../db/use-sync-status';
import type { ChangeWords } from './use-change-words';
import headerStyles from './header.module.css';
import { refusalText } from '../../db/view';
import { SyncEntry, WaitingEntry } from './sync-entry';
import styles from './sync-status.module.css';
import { registerScreenLoaders } from '../resource/screen-registry';
import { SCREEN_LOADERS } from './screen-loaders';
import { useChangeWords } from './use-change-words';

registerScreenLoaders(SCREEN_LOADERS);

interface SyncStatusProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A toast when a change this tab handed over earlier, and whose screen is gone, ends in a conflict
 * or a refusal (DESIGN §6: never dropped silently). What is already there when the tab opens is
 * not news; the button's count shows it.
 */
function useAnnounceTrouble({ entries, loaded }: Status, wordsOf: (entry: OutboxEntry) => ChangeWords): void {
  const { t, i18n } = useLingui();
  const toast = useToast();
  const seen = useRef<Map<number, OutboxStatus> | null>(null);

  useEffect(() => {
    if (!loaded) return;
    const before = seen.current;
    seen.current = new Map(entries.map((entry) => [entry.seq!, entry.status]));
    if (!before || document.visibilityState === 'hidden') return;
    for (const entry of entries) {
      if (entry.status === 'pending' || before.get(entry.seq!) === entry.status || outcomeClaimed(entry.seq!)) continue;
      const { item, title } = wordsOf(entry);
      const subject = title ? t`${item} “${title}”` : item;
      if (entry.status === 'conflict') toast.warning(t`Someone else changed ${subject} too. Open the sync status to choose which version to keep.`);
      else toast.error(t`Your change to ${subject} was refused: ${refusalText(entry, i18n)}`);
    }
  }, [entries, loaded, t, i18n, toast, wordsOf]);
}

function useSummary({ online, pending, conflicts, failed }: Status): string {
  const { t } = useLingui();
  const parts = [online ? t`Online` : t`Offline`];
  if (pending) parts.push(t`${pending} pending`);
  if (conflicts) parts.push(t`${conflicts} in conflict`);
  if (failed) parts.push(t`${failed} failed`);
  return parts.join(', ');
}

/** The header's sync button: online or not, how many changes wait, which need a decision; its panel resolves them. */
export function SyncStatus({ open, onOpenChange }: SyncStatusProps) {
  const { t, i18n } = useLingui();
  const status = useSyncStatus();
  const summary = useSummary(status);
  const root = useRef<HTMLDivElement>(null);
  const [syncing, setSyncing] = useState(false);
  // A question the panel asks (discard this change?) is the app's dialog, outside it: answering it keeps the panel open.
  useDismiss(root, open, () => document.querySelector('dialog[open]') === null && onOpenChange(false));
  // The screens that describe the changes are loaded when the panel opens, not with every page.
  const wordsOf = useChangeWords(status.entries, { load: open });
  useAnnounceTrouble(status, wordsOf);

  // App start, back online, tab visible again: the outbox is replayed (DESIGN §6).
  useEffect(() => startSync(), []);

  const { online, pending, conflicts, failed, entries, lastSync } = status;
  const attention: OutboxEntry[] = entries.filter((entry) => entry.status !== 'pending');
  const waiting = entries.filter((entry) => entry.status === 'pending');
  const Icon = !online ? CloudOff : attention.length ? CloudAlert : pending ? CloudUpload : Cloud;
  const count = attention.length || pending;
  const when = lastSync === null ? null : i18n.date(new Date(lastSync), { dateStyle: 'short', timeStyle: 'short' });

  async function syncNow() {
    setSyncing(true);
    try {
      await requestSync();
    } finally {
      setSyncing(false);
    }
  }

  return (
    <div ref={root} className={headerStyles.popupAnchor}>
      <button
        type="button"
        className={headerStyles.iconButton}
        aria-label={t`Sync status: ${summary}`}
        aria-expanded={open}
        aria-controls="sync-panel"
        data-state={!online ? 'offline' : attention.length ? 'attention' : pending ? 'pending' : 'synced'}
        onClick={() => onOpenChange(!open)}
      >
        <Icon aria-hidden size={20} />
        {count > 0 && (
          <span className={`${styles.badge} ${attention.length ? styles.badgeAttention : ''}`} aria-hidden>
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      <section id="sync-panel" className={headerStyles.panel} hidden={!open} aria-label={t`Sync`}>
        <h2 className={headerStyles.panelTitle}>
          <Trans>Sync</Trans>
        </h2>
        <p className={styles.state} data-online={online}>
          {online ? <Trans>Online</Trans> : <Trans>Offline: your changes are kept on this device and sent when you are back online.</Trans>}
        </p>
        <p className={headerStyles.muted}>
          {pending > 0 ? (
            <Plural value={pending} one="# change waiting to be sent" other="# changes waiting to be sent" />
          ) : attention.length === 0 ? (
            <Trans>Everything is on the server.</Trans>
          ) : null}
          {when !== null && (
            <>
              {' '}
              <Trans>Last sent: {when}</Trans>
            </>
          )}
        </p>
        {waiting.length > 0 && (
          <ul className={styles.entries} aria-label={t`Changes waiting to be sent`}>
            {waiting.map((entry) => (
              <WaitingEntry key={entry.seq} entry={entry} words={wordsOf(entry)} />
            ))}
          </ul>
        )}
        {attention.length > 0 && (
          <>
            <h3 className={styles.listTitle}>
              <Plural value={conflicts + failed} one="# change needs your decision" other="# changes need your decision" />
            </h3>
            <ul className={styles.entries}>
              {attention.map((entry) => (
                <SyncEntry key={entry.seq} entry={entry} words={wordsOf(entry)} />
              ))}
            </ul>
          </>
        )}
        <Button variant="secondary" busy={syncing} disabled={!online} onClick={() => void syncNow()}>
          <Trans>Sync now</Trans>
        </Button>
      </section>
    </div>
  );
}
