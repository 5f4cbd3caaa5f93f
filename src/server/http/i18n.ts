import { setupI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { negotiateLanguage, type InterfaceLanguage } from '../../contract/languages';
import { messages as de } from '../../locales/de/messages';
import { messages as en } from '../../locales/en/messages';

// The same compiled catalogs the client loads, so a message reads the same on both sides.
const catalogs = { en, de } satisfies Record<InterfaceLanguage, unknown>;
const i18nFor = Object.fromEntries(
  Object.entries(catalogs).map(([locale, messages]) => [locale, setupI18n({ locale, messages: { [locale]: messages } })]),
) as Record<InterfaceLanguage, I18n>;
const zodLocales = { en: z.locales.en(), de: z.locales.de() };

export type Translate = (descriptor: MessageDescriptor, values?: Record<string, unknown>) => string;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, from Accept-Language (en | de). */
    lang: InterfaceLanguage;
    t: Translate;
  }
}

export function translator(lang: InterfaceLanguage): Translate {
  const i18n = i18nFor[lang];
  // A descriptor may carry its values (`{ ...messages.deleted, values: { Item } }`), so an HttpError can too.
  return (descriptor, values = descriptor.values) => i18n._(descriptor.id!, values, { message: descriptor.message });
}

type Issue = { code: string; message: string; path: PropertyKey[] } & Record<string, unknown>;

function localeMessage(lang: InterfaceLanguage, issue: Issue): string {
  const result = zodLocales[lang].localeError(issue as never);
  return typeof result === 'string' ? result : (result?.message ?? issue.message);
}

/**
 * A Zod issue in the caller's language: a schema's own message is a catalog id when it has one
 * (`z.string().min(8, 'password.tooShort')`); otherwise Zod's default text is re-rendered in
 * the caller's language from the issue's fields.
 */
export function translateIssue(lang: InterfaceLanguage, issue: Issue): string {
  if (i18nFor.en.messages[issue.message]) return i18nFor[lang]._(issue.message);
  const isDefault = issue.message === localeMessage('en', issue);
  return isDefault ? localeMessage(lang, issue) : issue.message;
}

export const i18nPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('t', null as unknown as Translate);
  app.addHook('onRequest', (request, _reply, done) => {
    request.lang = negotiateLanguage(request.headers['accept-language']);
    request.t = translator(request.lang);
    done();
  });
});
