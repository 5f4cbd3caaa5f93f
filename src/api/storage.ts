import { toInterfaceLanguage, type InterfaceLanguage } from '../contract/languages';

// Spec §9 storage keys; the values are shared with the seed's clients, so they must not change.
const TOKEN_KEY = 'auth_token';
const LANGUAGE_KEY = 'language';

/** localStorage throws when the browser blocks storage; treat that as "nothing stored". */
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function storedToken(): string | null {
  return read(TOKEN_KEY);
}

export function storedLanguage(): InterfaceLanguage {
  return toInterfaceLanguage(read(LANGUAGE_KEY));
}
