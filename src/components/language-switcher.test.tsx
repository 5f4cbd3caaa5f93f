import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeedbackHost } from '../app/feedback';
import { activateLanguage } from '../api/catalogs';
import { readSession, saveSession } from '../api/session';
import { LanguageSwitcher } from './language-switcher';
import { ADA, wireUser } from '../api/user.test-support';

// The real catalog import is file IO that outlives a test; i18n.test.ts covers it.
vi.mock('../api/catalogs', () => ({ activateLanguage: vi.fn(async () => {}) }));

const fetchMock = vi.fn<typeof fetch>();
const reload = vi.fn();

const USER = wireUser();
const LANGUAGES = { success: true, data: [{ code: 'en', name: 'English' }, { code: 'de', name: 'Deutsch' }] };

type Answer = [unknown, number?] | 'network down';

/** Answers each "METHOD path" with the next of its answers; a promise answer waits until resolved. */
function serve(routes: Record<string, Array<Answer | Promise<Answer>>>) {
  fetchMock.mockImplementation(async (url, init) => {
    const answer = await routes[`${init?.method ?? 'GET'} ${String(url)}`]?.shift();
    if (!answer || answer === 'network down') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer[0]), { status: answer[1] ?? 200 });
  });
}

const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

async function renderSwitcher() {
  render(
    <I18nProvider i18n={i18n}>
      <LanguageSwitcher />
      <FeedbackHost />
    </I18nProvider>,
  );
  await settle();
}

const trigger = () => screen.getByRole('button', { name: 'Language' });
const option = (name: string) => screen.getByRole('button', { name });
const puts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(window.location, 'reload').mockImplementation(reload);
  saveSession('tok-1', ADA);
});

afterEach(async () => {
  await act(() => vi.advanceTimersByTimeAsync(10_000));
  vi.useRealTimers();
  vi.restoreAllMocks();
  fetchMock.mockReset();
  reload.mockReset();
  vi.mocked(activateLanguage).mockClear();
  localStorage.clear();
});

describe('LanguageSwitcher', () => {
  it('shows the interface language and offers the server’s languages, named in it', async () => {
    serve({ 'GET /api/languages/switcher?userLanguage=en': [[LANGUAGES]] });
    await renderSwitcher();

    expect(trigger().textContent).toContain('en');
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(trigger());
    expect(trigger().getAttribute('aria-expanded')).toBe('true');
    expect(option('Deutsch')).toBeDefined();
    expect(option('English').getAttribute('aria-current')).toBe('true');
  });

  it('falls back to English and German with "Failed to load languages" when the server fails', async () => {
    serve({ 'GET /api/languages/switcher?userLanguage=en': [[{ success: false, message: 'Something went wrong on the server.' }, 500]] });
    await renderSwitcher();

    expect(screen.getByRole('alert').textContent).toBe('Failed to load languages');
    fireEvent.click(trigger());
    expect([option('English'), option('Deutsch')]).toHaveLength(2);
  });

  it('falls back to English and German without a word when offline: no failure, only no answer', async () => {
    serve({ 'GET /api/languages/switcher?userLanguage=en': ['network down'] });
    await renderSwitcher();

    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(trigger());
    expect([option('English'), option('Deutsch')]).toHaveLength(2);
  });

  it('changes the language: profile, stored user, interface, menu closed, toast, reload after 500 ms', async () => {
    serve({
      'GET /api/languages/switcher?userLanguage=en': [[LANGUAGES]],
      'PUT /api/profile': [[{ success: true, data: { ...USER, language: 'de' } }]],
    });
    await renderSwitcher();

    fireEvent.click(trigger());
    fireEvent.click(option('Deutsch'));
    await settle();

    expect(JSON.parse(String(puts()[0]?.[1]?.body))).toEqual({ language: 'de' });
    expect(readSession().user?.language).toBe('de');
    expect(localStorage.getItem('language')).toBe('de');
    expect(activateLanguage).toHaveBeenCalledWith('de');
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('Language updated successfully!');
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(reload).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('ignores further choices while a change is being saved', async () => {
    let answer: ((value: Answer) => void) | undefined;
    serve({
      'GET /api/languages/switcher?userLanguage=en': [[LANGUAGES]],
      'PUT /api/profile': [new Promise<Answer>((resolve) => (answer = resolve))],
    });
    await renderSwitcher();

    fireEvent.click(trigger());
    fireEvent.click(option('Deutsch'));
    fireEvent.click(option('Deutsch'));
    fireEvent.click(option('English'));
    answer?.([{ success: true, data: { ...USER, language: 'de' } }]);
    await settle();

    expect(puts()).toHaveLength(1);
    expect(readSession().user?.language).toBe('de');
  });

  it.each([
    ['the server’s message', [{ success: false, message: 'Profile locked' }, 409] as Answer, 'Profile locked'],
    ['"Failed to update language" when the server gives none', [{ success: false }, 500] as Answer, 'Failed to update language'],
  ])('reports a failed change with %s and keeps the language', async (_case, failure, message) => {
    serve({ 'GET /api/languages/switcher?userLanguage=en': [[LANGUAGES]], 'PUT /api/profile': [failure] });
    await renderSwitcher();

    fireEvent.click(trigger());
    fireEvent.click(option('Deutsch'));
    await settle();

    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(readSession().user?.language).toBe('en');
    expect(localStorage.getItem('language')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(reload).not.toHaveBeenCalled();
  });

  it('closes the menu on Escape and on a click elsewhere, and on choosing the current language', async () => {
    serve({ 'GET /api/languages/switcher?userLanguage=en': [[LANGUAGES]] });
    await renderSwitcher();
    const expanded = () => trigger().getAttribute('aria-expanded');

    fireEvent.click(trigger());
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(expanded()).toBe('false');

    fireEvent.click(trigger());
    fireEvent.pointerDown(document.body);
    expect(expanded()).toBe('false');

    fireEvent.click(trigger());
    fireEvent.click(option('English'));
    expect(expanded()).toBe('false');
    expect(puts()).toHaveLength(0);
  });
});
