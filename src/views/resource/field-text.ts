import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { dateTimeFormat, formatMoney } from '../../components/intl-formats';
import { MODULE } from '../../contract/modules';
import { messages } from '../../contract/messages';
import type { CmsModule } from '../../contract/permissions';
import { media } from '../../contract/resources/cms';
import type { Row } from '../../db/resource-store';
import type { Choice, Field, OptionSource } from './screen';

// A field's value as a person reads it in a line of text (the sync panel, a conflict in a form):
// by the field's kind, never an id, a field name or cents (issue 18).

const MAX_TEXT = 80;
const yes = msg`Yes`;
const no = msg`No`;
const hidden = msg`(hidden)`;
const standard = msg`Standard`;
const agency = msg`Agency`;
const reseller = msg`Reseller`;

/** A picture field's records: the website's media library, each named by its text for the blind, else its file's name. */
const pictures: OptionSource = { resource: media, label: (row) => String(row.alt || row.fileName || '') };

/** The records a field refers to, if it refers to any. */
export function sourceOf(field: Field): OptionSource | null {
  if (field.kind === 'select' || field.kind === 'references') return field.source;
  return field.kind === 'picture' ? pictures : null;
}

/** How a record of `source` is named: its source's own words, else its title; never its id. */
export function recordName(source: OptionSource, row: Row): string {
  const name = source.label ? source.label(row) : row[source.resource.title];
  return typeof name === 'string' ? name : '';
}

export interface ValueWords {
  i18n: I18n;
  /** The name of the record an id of `source` names: undefined while it is looked up, null when it is nowhere. */
  name: (source: OptionSource, id: string) => string | null | undefined;
  /** The currency the record's amounts are in (its `currency`). */
  currency: string;
}

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);
const list = (parts: readonly string[]) => parts.filter(Boolean).join(', ');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const choiceText = (choices: readonly Choice[], value: unknown, i18n: I18n) => {
  const choice = choices.find((candidate) => candidate.value === value);
  return choice ? i18n._(choice.label) : '';
};

/** Formatted text (a page's content) as short plain text: tags out, entities read, spaces joined. */
export function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

function money(cents: unknown, words: ValueWords): string {
  return typeof cents === 'number' ? formatMoney(cents, words.currency, words.i18n.locale) : '';
}

function referenceName(source: OptionSource, id: unknown, { name, i18n }: ValueWords): string {
  if (typeof id !== 'string' || id === '') return '';
  const named = name(source, id);
  return named === undefined ? '…' : named || i18n._(messages.unknownRecord);
}

/** A field's value in words; empty for none. */
export function fieldText(field: Field, value: unknown, words: ValueWords): string {
  const { i18n } = words;
  switch (field.kind) {
    case 'password':
      return value ? i18n._(hidden) : '';
    case 'select':
    case 'picture':
      return referenceName(sourceOf(field)!, value, words);
    case 'references':
      return list((Array.isArray(value) ? value : []).map((id) => referenceName(field.source, id, words)));
    case 'choice':
      return choiceText(field.choices, value, i18n);
    case 'checkbox':
      return i18n._(value === true ? yes : no);
    case 'money':
      return money(value, words);
    case 'prices': {
      if (!isObject(value)) return '';
      const amounts = [
        [standard, value.standard],
        [agency, value.agency],
        [reseller, value.reseller],
      ] as const;
      return list(amounts.map(([label, cents]) => (typeof cents === 'number' ? `${i18n._(label)} ${money(cents, words)}` : '')));
    }
    case 'datetime':
      return typeof value === 'string' && value ? dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)) : '';
    case 'integer':
      return typeof value === 'number' ? i18n.number(value) : String(value ?? '');
    case 'richText':
      return cut(plainText(String(value ?? '')));
    case 'translations':
      return cut(list(Object.entries(isObject(value) ? value : {}).map(([code, entry]) => (isObject(entry) ? `${code.toUpperCase()}: ${String(entry.name ?? '')}` : ''))));
    case 'tags':
      return cut(list(Array.isArray(value) ? value.map(String) : []));
    case 'flags':
      return list(field.choices.filter((choice) => isObject(value) && value[choice.value] === true).map((choice) => i18n._(choice.label)));
    case 'choiceMap':
      return list(field.keys.map((key) => (isObject(value) ? `${i18n._(key.label)}: ${choiceText(field.choices, value[key.value], i18n)}` : '')));
    case 'records':
      return cut(list((Array.isArray(value) ? value : []).map((entry) => (isObject(entry) ? String(entry[field.itemTitle] ?? '') : ''))));
    case 'serviceFeatures':
      return cut(list((Array.isArray(value) ? value : []).map((feature) => (isObject(feature) && isObject(feature.name) ? String(feature.name[i18n.locale] || feature.name.en || '') : ''))));
    case 'serviceModules':
      return list(
        (Array.isArray(value) ? value : []).map((entry) => {
          const name = isObject(entry) ? MODULE[entry.module as CmsModule]?.name : undefined;
          return name ? i18n._(name) : '';
        }),
      );
    default:
      return cut(value === null || value === undefined ? '' : String(value));
  }
}

/** Whether two values of a field are the same for a person: none is none, however it is written. */
export function sameValue(a: unknown, b: unknown): boolean {
  const plain = (value: unknown): unknown => {
    if (value === undefined || value === null || value === '') return null;
    if (Array.isArray(value)) return value.map(plain);
    // A map comes back with its keys in another order (a language's names).
    return isObject(value) ? Object.fromEntries(Object.keys(value).toSorted().map((key) => [key, plain(value[key])])) : value;
  };
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}
