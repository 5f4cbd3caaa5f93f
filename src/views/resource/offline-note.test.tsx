import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages as german } from '../../locales/de/messages';
import { dataAge, OfflineNote } from './offline-note';

/** Local time, as the person's clock shows it: 25 November 2026, 12:00. */
const NOW = new Date(2026, 10, 25, 12, 0).getTime();
const MINUTE = 60_000;
/** Intl puts narrow no-break spaces into times ("6:40 PM"); the words are what count here. */
const words = (text: string | null) => text?.replace(/\s/g, ' ');
const age = (then: number) => words(dataAge(then, NOW, i18n));

afterEach(() => {
  vi.useRealTimers();
});

describe('the age of this device’s copy', () => {
  it('says it in words, in English', () => {
    expect(age(NOW - 30_000)).toBe('just now');
    expect(age(NOW - 10 * MINUTE)).toBe('10 minutes ago');
    expect(age(NOW - 59 * MINUTE)).toBe('59 minutes ago');
    expect(age(new Date(2026, 10, 25, 9, 15).getTime())).toBe('today at 9:15 AM');
    expect(age(new Date(2026, 10, 24, 18, 40).getTime())).toBe('yesterday at 6:40 PM');
    expect(age(new Date(2026, 10, 20, 18, 40).getTime())).toBe('Nov 20, 2026, 6:40 PM');
  });

  it('never says "now" or a time to come, even for a copy stamped by a clock ahead of this one', () => {
    expect(age(NOW)).toBe('just now');
    expect(age(NOW + 5 * MINUTE)).toBe('just now');
  });

  it('says it in German', () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    expect(age(NOW - 30_000)).toBe('gerade eben');
    expect(age(NOW - 10 * MINUTE)).toBe('vor 10 Minuten');
    expect(age(new Date(2026, 10, 25, 9, 15).getTime())).toBe('heute um 09:15');
    expect(age(new Date(2026, 10, 24, 18, 40).getTime())).toBe('gestern um 18:40');
    expect(age(new Date(2026, 10, 20, 18, 40).getTime())).toBe('20.11.2026, 18:40');
  });
});

describe('OfflineNote', () => {
  it('shows the age of the copy and keeps it current each minute', () => {
    vi.useFakeTimers({ now: NOW });
    render(
      <I18nProvider i18n={i18n}>
        <p>
          <OfflineNote since={NOW} />
        </p>
      </I18nProvider>,
    );
    expect(screen.getByText('Offline — showing data as of just now')).toBeDefined();
    act(() => vi.advanceTimersByTime(10 * MINUTE));
    expect(screen.getByText('Offline — showing data as of 10 minutes ago')).toBeDefined();
  });

  it('reads as a German sentence', () => {
    vi.useFakeTimers({ now: NOW });
    i18n.loadAndActivate({ locale: 'de', messages: german });
    render(
      <I18nProvider i18n={i18n}>
        <p>
          <OfflineNote since={new Date(2026, 10, 24, 18, 40).getTime()} />
        </p>
      </I18nProvider>,
    );
    expect(screen.getByText('Offline – Stand: gestern um 18:40')).toBeDefined();
  });
});
