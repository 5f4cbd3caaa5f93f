import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageTransport } from './request';
import { chosenLanguage } from './storage';
import { applyDefaultLanguage, interfaceLanguage } from './interface-language';

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('interfaceLanguage (spec §9)', () => {
  it('is the visitor’s choice, else the installation’s default, else English', () => {
    expect([chosenLanguage(), interfaceLanguage('de'), interfaceLanguage(null), interfaceLanguage()]).toEqual([null, 'de', 'en', 'en']);

    localStorage.setItem('language', 'en');
    expect([chosenLanguage(), interfaceLanguage('de')]).toEqual(['en', 'en']);
  });
});

describe('applyDefaultLanguage', () => {
  it('switches a visitor who never chose to the default, in place and without making it a choice; the server hears it too', async () => {
    expect(await applyDefaultLanguage('de')).toBe(true);

    expect(i18n.locale).toBe('de');
    expect(localStorage.getItem('language')).toBeNull();
    expect(pageTransport().language).toBe('de');
    // Already there: nothing more to do, however often the brand is read.
    expect(await applyDefaultLanguage('de')).toBe(false);
  });

  it('never overrides a choice', async () => {
    localStorage.setItem('language', 'en');

    expect(await applyDefaultLanguage('de')).toBe(false);
    expect(i18n.locale).toBe('en');
    expect(pageTransport().language).toBe('en');
  });
});
