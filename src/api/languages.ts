import type { SwitcherLanguage } from '../contract/auth';
import type { InterfaceLanguage } from '../contract/languages';
import { listSwitcherLanguages } from '../contract/resources/catalogs';
import { call } from './action';

/** The languages the header's switcher offers, named in `userLanguage`. */
export async function fetchSwitcherLanguages(userLanguage: InterfaceLanguage, signal?: AbortSignal): Promise<SwitcherLanguage[]> {
  return (await call(listSwitcherLanguages, { query: { userLanguage } }, { signal })).data;
}
