import type { MessageDescriptor } from '@lingui/core';
import type { Resource } from '../../contract/resource';
import type { Row } from '../../db/resource-store';
import type { RouteScope } from './use-scoped-resource';

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
  /** Text; `link` makes it lead somewhere (a category to its subcategories). */
  | (ColumnBase & { format?: 'text'; sortable?: boolean; link?: (row: Row) => string })
  | (ColumnBase & { format: 'date'; sortable?: boolean })
  /** How many entries a map holds (a language's translated names). */
  | (ColumnBase & { format: 'count' })
  /** The name of the record of `source` the field refers to. */
  | (ColumnBase & { format: 'lookup'; source: OptionSource });

export type Field =
  | { name: string; label: MessageDescriptor; kind: 'text' | 'textarea' }
  | { name: string; label: MessageDescriptor; kind: 'select'; source: OptionSource }
  /** `{ code: { name } }`: a name per language code (spec §3, a language's `content`). */
  | { name: string; label: MessageDescriptor; kind: 'translations' };

/** An equality filter of the list query, offered in the header's filter panel. */
export interface Filter {
  key: string;
  label: MessageDescriptor;
  source: OptionSource;
}

/** One resource's list and form screens, as data. */
export interface ResourceScreen {
  resource: Resource;
  columns: readonly Column[];
  fields: readonly Field[];
  filters?: readonly Filter[];
  /** The route parameters that hold the entry's scope (`{ websiteId: 'id' }` under /cms/:id). */
  scope?: RouteScope;
  /** Own routes for new and edited records (spec §2); without them the form opens in a dialog over the list. */
  routes?: { list: string; create: string; edit: (id: string) => string };
}

/** The empty form: text fields empty, maps without entries. */
export function blankValues(fields: readonly Field[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, field.kind === 'translations' ? {} : '']));
}

/** The sources of a form's select fields (undefined for the other fields), for optionSources. */
export const fieldSources = (fields: readonly Field[]): (OptionSource | undefined)[] =>
  fields.map((field) => (field.kind === 'select' ? field.source : undefined));

/** Every other resource a screen takes choices from, once each. */
export function optionSources(...sources: readonly (OptionSource | undefined)[]): OptionSource[] {
  const seen = new Map<string, OptionSource>();
  for (const source of sources) if (source && !seen.has(source.resource.name)) seen.set(source.resource.name, source);
  return [...seen.values()];
}
