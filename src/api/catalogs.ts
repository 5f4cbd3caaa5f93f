import { i18n, type Messages } from '@lingui/core';
import type { InterfaceLanguage } from '../contract/languages';

/**
 * Which catalog a language loads (ADR 014): `boot`, the first screen's messages, until the
 * signed-in shell asks for `messages`, all of them; a language switch loads the one in use.
 */
let catalog: 'boot' | 'messages' = 'boot';
let latest: Promise<void> = Promise.resolve();

/** One language's compiled catalog, loaded on demand: its first screen's (`boot`) or all its messages. */
export function catalogOf(locale: InterfaceLanguage, which: 'boot' | 'messages' = 'messages'): Promise<Messages> {
  return import(`../locales/${locale}/${which}.ts`).then((module: { messages: Messages }) => module.messages);
}

/**
 * Loads one language's compiled catalog on demand, so a user downloads only the language they
 * use; `all`: every message at once (a signed-in start, which skips the sign-in screens).
 */
export function activateLanguage(locale: InterfaceLanguage, { all = false }: { all?: boolean } = {}): Promise<void> {
  if (all) catalog = 'messages';
  const wanted = catalog;
  latest = catalogOf(locale, wanted).then((messages) => {
    // Lingui merges what it loads into what the locale has: a boot catalog arriving late removes nothing.
    i18n.loadAndActivate({ locale, messages });
    document.documentElement.lang = locale;
  });
  return latest;
}

/** Every message of the active language: the signed-in shell waits for them before its first render. */
export function loadAllMessages(): Promise<void> {
  if (catalog === 'messages') return latest;
  return activateLanguage(i18n.locale as InterfaceLanguage, { all: true });
}
