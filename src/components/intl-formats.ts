import { DEFAULT_CURRENCY } from '../contract/resources/services';

/**
 * Intl formatters, made once per locale and options: making one loads locale data and costs
 * milliseconds (tens on a slow phone), so a table must not make one per render.
 */
type Formatter = Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.NumberFormat | Intl.DisplayNames;
const made = new Map<string, Formatter>();

function once<T extends Formatter>(key: string, make: () => T): T {
  let format = made.get(key) as T | undefined;
  if (!format) {
    format = make();
    made.set(key, format);
  }
  return format;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return once(`date ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** A day as lists show it ("23 Nov 2026"). */
export const dateFormat = (locale: string) => dateTimeFormat(locale, { dateStyle: 'medium' });

export function relativeTimeFormat(locale: string, options: Intl.RelativeTimeFormatOptions): Intl.RelativeTimeFormat {
  return once(`relative ${locale} ${JSON.stringify(options)}`, () => new Intl.RelativeTimeFormat(locale, options));
}

/** A language's name from its code, as the locale writes it ("de": "German", "Deutsch"); the code itself where it names no language. */
export function languageName(code: string, locale: string): string {
  try {
    return once(`language ${locale}`, () => new Intl.DisplayNames(locale, { type: 'language', fallback: 'code' })).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The currency the first of these records names (a form's values, then the server's copy…); euros where none does. */
export function currencyOf(...records: (Readonly<Record<string, unknown>> | null | undefined)[]): string {
  for (const record of records) if (typeof record?.currency === 'string' && record.currency !== '') return record.currency;
  return DEFAULT_CURRENCY;
}

/** An amount of money kept in cents (never a float on the wire), as the locale writes it: "49,00 €". */
export function formatMoney(cents: number, currency: string, locale: string): string {
  return once(`money ${locale} ${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency })).format(cents / 100);
}
