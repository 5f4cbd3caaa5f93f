import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { messages } from '../contract/messages';
import { activateLanguage } from './i18n';

// Reads the compiled catalogs: `npm run i18n:compile` runs before the unit tests.
describe('activateLanguage', () => {
  it('loads the German catalog and marks the document German', async () => {
    await activateLanguage('de');

    expect(i18n.locale).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18n._(messages.requestFailed)).toBe('Anfrage fehlgeschlagen');
  });

  it('switches back to English', async () => {
    await activateLanguage('de');
    await activateLanguage('en');

    expect(document.documentElement.lang).toBe('en');
    expect(i18n._(messages.requestFailed)).toBe('Request failed');
  });
});
