import { i18n } from '@lingui/core';
import { chosenLanguage } from './storage';
import { DEFAULT_LANGUAGE, type InterfaceLanguage } from '../contract/languages';
import { activateLanguage } from './catalogs';

/**
 * Which language the interface speaks (spec §9): a person's explicit choice always (the switcher,
 * or the account's language at sign-in, stored under `language`); without one, the installation's
 * default from the settings (`defaultLanguage` of the white-label config); English before either
 * is known. The default is never stored as a choice, so a later change of it still reaches those
 * who never chose.
 */


/** The language to show: the choice, else the installation's default (when known), else English. */
export function interfaceLanguage(defaultLanguage?: InterfaceLanguage | null): InterfaceLanguage {
  return chosenLanguage() ?? defaultLanguage ?? DEFAULT_LANGUAGE;
}

/**
 * Once the branding is known: a visitor who never chose gets the installation's default, switched
 * in place (no reload, so nothing can loop). Resolves with whether it switched.
 */
export async function applyDefaultLanguage(defaultLanguage: InterfaceLanguage): Promise<boolean> {
  if (chosenLanguage() !== null || i18n.locale === defaultLanguage) return false;
  await activateLanguage(defaultLanguage);
  return true;
}
