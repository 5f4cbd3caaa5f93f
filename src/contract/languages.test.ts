import { describe, expect, it } from 'vitest';
import { negotiateLanguage, toInterfaceLanguage } from './languages';

describe('interface language', () => {
  it('negotiates from Accept-Language by quality', () => {
    expect(negotiateLanguage(undefined)).toBe('en');
    expect(negotiateLanguage('de')).toBe('de');
    expect(negotiateLanguage('de-AT,de;q=0.9')).toBe('de');
    expect(negotiateLanguage('fr-FR,en;q=0.4,de;q=0.8')).toBe('de');
    expect(negotiateLanguage('fr,es')).toBe('en');
    expect(negotiateLanguage('de;q=0,en')).toBe('en');
  });

  it('maps stored values to an interface language', () => {
    expect(toInterfaceLanguage('de-DE')).toBe('de');
    expect(toInterfaceLanguage('DE')).toBe('de');
    expect(toInterfaceLanguage('it')).toBe('en');
    expect(toInterfaceLanguage(null)).toBe('en');
  });
});
