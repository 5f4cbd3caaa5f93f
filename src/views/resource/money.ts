/**
 * Money as a person types it, and back: amounts are kept in cents (never a float), typed in the
 * currency's main unit with either decimal mark ("49.00", "49,00", "1.490,50", "1,490.50").
 */

/** A decimal mark followed by one or two digits at the end: "49,5", "49.00". */
const FRACTION = /[.,](\d{1,2})$/;
/** Whole units: plain digits, or grouped by thousands with one separator ("1.490", "1,490,000"). */
const WHOLE = /^(?:\d+|\d{1,3}([.,])\d{3}(?:\1\d{3})*)$/;

/**
 * The cents an amount stands for, or null when it is not one. Spaces, apostrophes and currency
 * signs are ignored ("€ 1 490,00", "1'490.00"); negative amounts are not money here. A lone
 * separator before exactly three digits groups thousands ("1.490" is 1,490.00).
 */
export function parseMoney(text: string): number | null {
  const plain = text.replace(/[\s'’\p{Sc}]/gu, '');
  const fraction = FRACTION.exec(plain);
  const whole = fraction ? plain.slice(0, fraction.index) : plain;
  const grouped = WHOLE.exec(whole);
  if (!grouped) return null;
  // "1.490.00": the thousands separator cannot be the decimal mark too.
  if (fraction && grouped[1] && plain[fraction.index] === grouped[1]) return null;
  const cents = Number(whole.replace(/[.,]/g, '')) * 100 + Number((fraction?.[1] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Cents as an input shows them, in the locale's decimal mark and without grouping: "49.00", "49,00". */
export function moneyText(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}
