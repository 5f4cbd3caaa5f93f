import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { relativeTimeFormat } from '../../components/intl-formats';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "just now" (under a minute) in the interface language. */
function relativeTime(then: number, now: number, locale: string): string {
  const seconds = Math.round((then - now) / 1000);
  const format = relativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** "Offline — showing data from 5 minutes ago": the age of this device's copy, kept current each minute. */
export function OfflineNote({ since }: { since: number }) {
  const { i18n } = useLingui();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const age = relativeTime(since, now, i18n.locale);
  return <Trans>Offline — showing data from {age}</Trans>;
}
