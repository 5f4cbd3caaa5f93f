import type { I18n, MessageDescriptor } from '@lingui/core';
import { z } from 'zod/mini';
import type { Resource } from '../../contract/resource';
import type { SessionUser } from '../../api/session';
import type { Row } from '../../db/resource-store';

/** Choices that are the records of another resource (a subcategory's category). */
export interface OptionSource {
  resource: Resource;
  /** The option's text; the record's title (the entry's `title` field) unless said otherwise. */
  label?: (row: Row) => string;
}

interface ColumnBase {
  /** The row's field shown. */
  key: string;
  label: MessageDescriptor;
}

export type Column =
  /**
   * Text; `link` makes it lead somewhere (a category to its subcategories); `text` shows more
   * than the one field (a person's first and last name).
   */
  | (ColumnBase & { format?: 'text'; sortable?: boolean; link?: (row: Row) => string; text?: (row: Row, i18n: I18n) => string })
  /** A day; `datetime`: a day and its time (a change in the activity log). */
  | (ColumnBase & { format: 'date' | 'datetime'; sortable?: boolean })
  /**
   * What a change changed, in words (`[{ field, before, after }]`, contract/history.ts): each field by
   * its label and its values as its form shows them (money, yes or no, a record by its name), from
   * the screen words of the entry the row's `entry` field names; never a field's key.
   */
  | (ColumnBase & { format: 'changes'; entry: string })
  /** How many entries a list or map holds (a contact form's fields). */
  | (ColumnBase & { format: 'count' })
  /** The languages a map of names per language (`{ de: { name } }`) has a name in, by their names ("German"). */
  | (ColumnBase & { format: 'languages' })
  /** The name of the record of `source` the field refers to. */
  | (ColumnBase & { format: 'lookup'; source: OptionSource })
  /** One of a fixed set of values, in words (a status). */
  | (ColumnBase & { format: 'choice'; choices: readonly Choice[]; sortable?: boolean })
  /** Cents, in the currency the row's `currency` names. */
  | (ColumnBase & { format: 'money' })
  /**
   * A picture at the URL the field holds (a slide's image); its text is the row's title. `media`: the
   * field holding its media library id, so a picture still waiting on this device shows from there.
   */
  | (ColumnBase & { format: 'image'; media?: string });

/** One of a fixed set of values (a status, a type), each with its words. */
export interface Choice {
  value: string;
  label: MessageDescriptor;
}

export type Field =
  /** `password`: a secret the server never answers (an SMTP password), so an empty one leaves the stored one. */
  | { name: string; label: MessageDescriptor; kind: 'text' | 'textarea' | 'email' | 'url' | 'password'; hint?: MessageDescriptor }
  /**
   * A record of another resource. `optional`: none is a choice (stored as null). `searchable`:
   * the choices are searched on the server as one types, for sources of thousands (accounts).
   */
  | { name: string; label: MessageDescriptor; kind: 'select'; source: OptionSource; optional?: boolean; searchable?: boolean }
  /**
   * A picture of the website's media library (a dish's, a slide's, a post's cover), as its id: shown,
   * taken with the camera, chosen from the device or from the library, online or offline (a photo
   * waiting on this device is one too). The library is the one of the website the route names.
   */
  | { name: string; label: MessageDescriptor; kind: 'picture'; optional?: boolean }
  /** Several records of another resource (a website's technologies), as a list of ids. */
  | { name: string; label: MessageDescriptor; kind: 'references'; source: OptionSource }
  | { name: string; label: MessageDescriptor; kind: 'choice'; choices: readonly Choice[] }
  | { name: string; label: MessageDescriptor; kind: 'checkbox' }
  /** `{ code: { name } }`: a name per language code (spec §3, a language's `content`). */
  | { name: string; label: MessageDescriptor; kind: 'translations' }
  /** A list of short texts (keywords), typed separated by commas. */
  | { name: string; label: MessageDescriptor; kind: 'tags'; hint?: MessageDescriptor }
  /** A whole number (a position among others), typed in digits. */
  | { name: string; label: MessageDescriptor; kind: 'integer' }
  /** Formatted text (a page's content) as HTML, edited in TipTap; the server keeps only its allowlist. */
  | { name: string; label: MessageDescriptor; kind: 'richText' }
  /** A moment (ISO 8601 with its offset, or null for none), picked in the device's time zone. */
  | { name: string; label: MessageDescriptor; kind: 'datetime'; hint?: MessageDescriptor }
  /** Cents (a dish's price), typed as money in the currency's unit ("14.90", "14,90"). */
  | { name: string; label: MessageDescriptor; kind: 'money' }
  /** Cents per partner type (`{ standard, agency?, reseller? }`), typed as money ("49.00", "49,00"). */
  | { name: string; label: MessageDescriptor; kind: 'prices' }
  /** A service's features (key, English and German name, prices) or its CMS modules (module, prices). */
  | { name: string; label: MessageDescriptor; kind: 'serviceFeatures' | 'serviceModules' }
  /**
   * A list of small records (a contact form's fields), each edited with the `item` fields, added,
   * removed and moved; `itemTitle` is the item field that names each one, `add` the add button's words.
   */
  | { name: string; label: MessageDescriptor; kind: 'records'; item: readonly Field[]; itemTitle: string; add: MessageDescriptor }
  /** Yes or no for each of `choices`, kept as one map (a team role's flags: `{ cms: true, seo: false }`). */
  | { name: string; label: MessageDescriptor; kind: 'flags'; choices: readonly Choice[] }
  /** One of `choices` for each of `keys`, kept as one map (a team role's level per CMS module: `{ pages: 'edit' }`). */
  | { name: string; label: MessageDescriptor; kind: 'choiceMap'; keys: readonly Choice[]; choices: readonly Choice[] };

/** What a filter's choices are loaded with: the route's parameters (`{ websiteId }`) in, each choice's value and words out. */
export type ChoiceLoader = (params: Readonly<Record<string, string>>) => Promise<readonly { value: string; label: string }[]>;

/**
 * A filter of the list query, offered in the header's filter panel: an equality filter over records
 * of a source, fixed choices, or choices a call answers (`load`: the people in an activity log); or a
 * day (`day`: the query holds the moment it starts or ends in the device's time zone, a range's two ends).
 */
export type Filter = { key: string; label: MessageDescriptor } & ({ source: OptionSource } | { choices: readonly Choice[] } | { load: ChoiceLoader } | { day: 'start' | 'end' });

/** One resource's list and form screens, as data. */
export interface ResourceScreen {
  /** Bound to the website or parent record the route names, by parameters of the same names (useBoundResource). */
  resource: Resource;
  columns: readonly Column[];
  fields: readonly Field[];
  filters?: readonly Filter[];
  /**
   * Own routes (spec §2): the list, new and edited records, and a record's own page. Without
   * them (or without `create`) the form opens in a dialog over the list. They may name the
   * current route's parameters (`/cms/:websiteId/pages`: the website), filled in where they are
   * used (useScreenRoutes); `idParam` is the edit route's parameter holding the record's id (`id`).
   */
  routes?: { list: string; create?: string; edit: (id: string) => string; view?: (id: string) => string; idParam?: string };
  /** A new record's form starts at the defaults of the entry's schema (a dish available, in EUR), not blank. */
  schemaDefaults?: boolean;
  /** Rows on one page of the list; a short set read as a whole (a website's allergens) shows on one. */
  pageSize?: number;
  /** What a row offers beside edit and delete (a recycle bin's Restore), each where the person may. */
  rowActions?: readonly RowAction[];
  /** A delete that is more than one (a recycle bin's "Delete permanently"): its words, and per row whether the person may. */
  deletion?: { label: (name: string) => MessageDescriptor; allowed?: (row: Row, user: SessionUser | null) => boolean };
}

/**
 * A button on each row of a list: `run` does it (the app's one toast says how it went) and the list
 * is read again; `confirm`, a question asked first with the app's one confirm dialog.
 */
export interface RowAction {
  key: string;
  label: (name: string) => MessageDescriptor;
  icon: 'restore';
  allowed?: (row: Row, user: SessionUser | null) => boolean;
  confirm?: (name: string) => MessageDescriptor;
  run: (row: Row, params: Readonly<Record<string, string>>) => Promise<void>;
}

/** A field's value in an empty form. */
function blank(field: Field): unknown {
  switch (field.kind) {
    case 'translations':
      return {};
    case 'references':
    case 'tags':
    case 'records':
    case 'serviceFeatures':
    case 'serviceModules':
      return [];
    case 'prices':
      return {};
    case 'integer':
      return 0;
    case 'checkbox':
      return false;
    case 'choice':
      return field.choices[0]?.value ?? '';
    case 'select':
    case 'picture':
      return field.optional ? null : '';
    case 'datetime':
      return null;
    case 'flags':
      return Object.fromEntries(field.choices.map((choice) => [choice.value, false]));
    case 'choiceMap':
      return Object.fromEntries(field.keys.map((key) => [key.value, field.choices[0]?.value ?? '']));
    default:
      return '';
  }
}

/** The default the entry's schema gives a field (a dish is available, a slider plays on its own), if it has one. */
function schemaDefault(resource: Resource, field: Field): { value: unknown } | null {
  if (field.kind === 'select' || field.kind === 'references' || field.kind === 'picture') return null;
  const schema = (resource.create._zod.def.shape as Record<string, unknown>)[field.name];
  if (!(schema instanceof z.core.$ZodDefault)) return null;
  const value: unknown = schema._zod.def.defaultValue;
  if (field.kind === 'choice' && !field.choices.some((choice) => choice.value === value)) return null;
  return typeof value === typeof blank(field) ? { value } : null;
}

/**
 * The empty form: text fields empty, lists and maps without entries, a choice at its first value;
 * with the entry, each field the entry's schema gives a default starts at it instead.
 */
export function blankValues(fields: readonly Field[], resource?: Resource): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, (resource && schemaDefault(resource, field)?.value) ?? blank(field)]));
}

/** The sources of a form's fields that choose records (undefined for the other fields), for optionSources. */
export const fieldSources = (fields: readonly Field[]): (OptionSource | undefined)[] =>
  fields.map((field) => (field.kind === 'select' || field.kind === 'references' ? field.source : undefined));

/** Every other resource a screen takes choices from, once each. */
export function optionSources(...sources: readonly (OptionSource | undefined)[]): OptionSource[] {
  const seen = new Map<string, OptionSource>();
  for (const source of sources) if (source && !seen.has(source.resource.name)) seen.set(source.resource.name, source);
  return [...seen.values()];
}
