import { msg } from '@lingui/core/macro';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../contract/messages';

// Reads the compiled catalogs: `npm run i18n:compile` runs before the unit tests. Each test takes
// fresh modules, so which catalog a language has loaded starts over.
const fresh = async () => {
  vi.resetModules();
  const [{ i18n }, own] = await Promise.all([import('@lingui/core'), import('./catalogs')]);
  return { i18n, ...own };
};

/** A message of a signed-in screen only (views/cms/menus.tsx): in the whole catalog, not the first screen's. */
const shellOnly = msg`Menu items`;

describe('activateLanguage', () => {
  beforeEach(() => {
    document.documentElement.lang = '';
  });

  it('loads the German catalog and marks the document German', async () => {
    const { i18n, activateLanguage } = await fresh();
    await activateLanguage('de');

    expect(i18n.locale).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18n._(messages.requestFailed)).toBe('Anfrage fehlgeschlagen');
  });

  it('switches back to English', async () => {
    const { i18n, activateLanguage } = await fresh();
    await activateLanguage('de');
    await activateLanguage('en');

    expect(document.documentElement.lang).toBe('en');
    expect(i18n._(messages.requestFailed)).toBe('Request failed');
  });

  it('loads only the first screen’s messages until the shell asks for all of them, and a switch then keeps all', async () => {
    const { i18n, activateLanguage, loadAllMessages } = await fresh();
    await activateLanguage('de');
    expect(i18n._(shellOnly)).not.toBe('Menüeinträge');

    await loadAllMessages();
    expect(i18n._(shellOnly)).toBe('Menüeinträge');

    await activateLanguage('en');
    await activateLanguage('de');
    expect(i18n._(shellOnly)).toBe('Menüeinträge');
  });

  it('loads every message at once for a signed-in start', async () => {
    const { i18n, activateLanguage } = await fresh();
    await activateLanguage('de', { all: true });

    expect(i18n._(shellOnly)).toBe('Menüeinträge');
  });
});
