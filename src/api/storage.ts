import { toInterfaceLanguage, type InterfaceLanguage } from '../contract/languages';

// Spec §9 storage keys; the values are shared with the seed's clients, so they must not change.
export const TOKEN_KEY = 'auth_token';
const LANGUAGE_KEY = 'language';

/** localStorage throws when the browser blocks storage; treat that as "nothing stored". */
export function readStored(key: string, storage: 'local' | 'session' = 'local'): string | null {
  try {
    return (storage === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

export function storedToken(): string | null {
  return readStored(TOKEN_KEY);
}

/** The language this visitor chose (spec §9 `language`), or null when they never did. */
export function chosenLanguage(): InterfaceLanguage | null {
  const stored = readStored(LANGUAGE_KEY);
  return stored === null ? null : toInterfaceLanguage(stored);
}

export function storeLanguage(language: InterfaceLanguage): void {
  localStorage.setItem(LANGUAGE_KEY, language);
}
