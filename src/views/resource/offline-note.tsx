import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Button } from '../../components/form/button';
import { dateTimeFormat, relativeTimeFormat } from '../../components/intl-formats';
import { messages } from '../../contract/messages';
import { useOnline } from '../../db/use-sync-status';
import styles from './resource.module.css';

const MINUTE = 60_000;

const startOfDay = (time: number) => new Date(time).setHours(0, 0, 0, 0);

/**
 * How old this device's copy is, in words: "just now", "10 minutes ago", "today at 9:15 AM",
 * "yesterday at 6:40 PM", then the date. Never "now" or a time to come: a clock that went back
 * makes a copy "just now".
 */
export function dataAge(then: number, now: number, i18n: I18n): string {
  const minutes = Math.floor((now - then) / MINUTE);
  if (minutes < 1) return i18n._(msg`just now`);
  if (minutes < 60) return relativeTimeFormat(i18n.locale, { numeric: 'always' }).format(-minutes, 'minute');
  const days = Math.round((startOfDay(now) - startOfDay(then)) / (24 * 60 * MINUTE));
  const time = dateTimeFormat(i18n.locale, { timeStyle: 'short' }).format(then);
  if (days > 1) return dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(then);
  // "today", "yesterday" in the interface language.
  const day = relativeTimeFormat(i18n.locale, { numeric: 'auto' }).format(-days, 'day');
  return i18n._(msg`${day} at ${time}`);
}

/** "Offline — showing data as of 10 minutes ago": the age of this device's copy, kept current each minute. */
export function OfflineNote({ since }: { since: number }) {
  const { i18n } = useLingui();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  const age = dataAge(since, now, i18n);
  return <Trans>Offline — showing data as of {age}</Trans>;
}

interface LoadProblemProps {
  /** "Failed to load files": what could not be loaded, in the catalogue's words (spec §8). */
  failed: string;
  /** Why, as the machines keep it: the server's message, or the network error's. */
  reason: string | null;
  onRetry: () => void;
}

/**
 * Nothing on show because a load failed. Offline (the device says so, or the server gave no answer
 * at all) that is no error, only data this device has not had yet: a quiet note. Only a refusal
 * from the server is an error, with its reason.
 */
export function LoadProblem({ failed, reason, onRetry }: LoadProblemProps) {
  const { i18n } = useLingui();
  const online = useOnline();
  // The machines keep a failure as its words; the network error's are those of no answer (api/send.ts).
  const unanswered = !online || reason === i18n._(messages.networkError);
  const retry = (
    <Button variant="secondary" onClick={onRetry}>
      <Trans>Try again</Trans>
    </Button>
  );
  if (unanswered) {
    return (
      <div className={styles.age} role="status">
        <span>
          <Trans>Offline — this has not been loaded on this device yet. It shows here once you are back online.</Trans>
        </span>
        {retry}
      </div>
    );
  }
  return (
    <div className={styles.problem} role="alert">
      <p className={styles.problemText}>
        <strong>{failed}</strong> {reason !== failed && reason}
      </p>
      {retry}
    </div>
  );
}
