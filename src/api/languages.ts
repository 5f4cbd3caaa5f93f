import { SwitcherLanguageSchema, type SwitcherLanguage } from '../contract/auth';
import type { InterfaceLanguage } from '../contract/languages';
import { messages } from '../contract/messages';
import { requestData } from './request';
import { z } from 'zod/mini';

/** The languages the header's switcher offers, named in `userLanguage`. */
export function fetchSwitcherLanguages(userLanguage: InterfaceLanguage, signal?: AbortSignal): Promise<SwitcherLanguage[]> {
  const query = new URLSearchParams({ userLanguage });
  return requestData(`/api/languages/switcher?${query}`, z.array(SwitcherLanguageSchema), { signal, fallback: messages.languagesLoadFailed });
}
