import { i18n, type Messages } from '@lingui/core';
import type { InterfaceLanguage } from '../contract/languages';

/** Loads one language's compiled catalog on demand, so a user downloads only the language they use. */
export async function activateLanguage(locale: InterfaceLanguage): Promise<void> {
  const { messages } = (await import(`../locales/${locale}/messages.ts`)) as { messages: Messages };
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}
