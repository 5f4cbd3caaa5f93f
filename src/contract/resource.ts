import type { MessageDescriptor } from '@lingui/core';
import { z } from 'zod';
import { messages } from './messages';
import type { CmsModule, Policy } from './permissions';

/**
 * A resource as data (DESIGN.md §3): the server's CRUD routes, the client's API, cache keys,
 * list and editor screens are all derived from one of these.
 */
export interface ResourceConfig<Fields extends z.ZodRawShape, Filters extends z.ZodRawShape, Sort extends string> {
  /** Message values, cache keys and policy names derive from it; also the table's name. */
  name: string;
  /** Lower-case nouns for "Failed to load {items}", "{item} deleted successfully". */
  label: { one: MessageDescriptor; other: MessageDescriptor };
  scope: 'global' | 'owner' | 'website';
  /** The CMS permission module of a website-scoped resource. */
  module?: CmsModule;
  /** Who may read (list, get) and who may write (create, update, delete). */
  access: { read: Policy; write: Policy };
  /** Wire paths exactly as the spec names them; `:id` is the item. */
  paths: { list: string; item: string };
  /** The fields a person edits: create takes all of them, update any of them. */
  fields: Fields;
  /** Equality filters of the list query (spec §3 list query fields); each is a field of the entity. */
  filters: Filters;
  /** Text fields the list's `search` matches (case-insensitive, anywhere in the text). */
  search: readonly (keyof Fields & string)[];
  /** Sortable fields; the first is the default (ascending). */
  sort: readonly [Sort, ...Sort[]];
  /** Fields that must be unique (case-insensitively for text): a clash is a field error, not a 500. */
  unique?: readonly (keyof Fields & string)[];
}

const id = z.uuid();

export const EntityBaseSchema = z.object({
  _id: id,
  version: z.number().int().positive(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});

export const SORT_ORDERS = ['asc', 'desc'] as const;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;

// A query string value the client left empty counts as not given (spec §5: empty filters are omitted).
const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const withoutDefault = (schema: z.core.SomeType) => (schema instanceof z.ZodDefault ? schema.unwrap() : schema) as z.ZodType;

export function defineResource<Fields extends z.ZodRawShape, Filters extends z.ZodRawShape, Sort extends string>(
  config: ResourceConfig<Fields, Filters, Sort>,
) {
  const fields = z.object(config.fields);
  // Zod applies a default even under .optional(): an update that leaves a field out would reset
  // it. So an update takes every field optional *without* its default.
  const update = z.object(
    Object.fromEntries(Object.entries(config.fields).map(([key, schema]) => [key, withoutDefault(schema).optional()])),
  ) as unknown as ReturnType<typeof fields.partial>;
  const entity = EntityBaseSchema.extend(config.fields);
  const filterShape = Object.fromEntries(
    Object.entries(config.filters).map(([key, schema]) => [key, optionalQuery(schema as z.ZodType)]),
  ) as unknown as { [K in keyof Filters]: z.ZodOptional<Filters[K]> };
  const query = z.object({
    page: optionalQuery(z.coerce.number().int().min(1).max(1_000_000)).default(1),
    limit: optionalQuery(z.coerce.number().int().min(1).max(MAX_PAGE_SIZE)).default(DEFAULT_PAGE_SIZE),
    search: optionalQuery(z.string().trim().max(200)),
    sortBy: optionalQuery(z.enum(config.sort)),
    sortOrder: optionalQuery(z.enum(SORT_ORDERS)),
    ...filterShape,
  });
  return {
    ...config,
    /** What the server returns: the fields plus `_id`, `version` and the timestamps. */
    entity,
    /** A create may name its own UUID (DESIGN §4), so an offline create can be edited before it syncs. */
    create: fields.extend({ _id: id.optional() }),
    update,
    query,
  };
}

/** Any resource. Its query's shape follows the entry's filters, so all that resources share there is "an object schema". */
export type Resource = Omit<ReturnType<typeof defineResource<z.ZodRawShape, z.ZodRawShape, string>>, 'query'> & { query: z.ZodObject };
export type EntityOf<R extends Resource> = z.infer<R['entity']>;
export type CreateOf<R extends Resource> = z.input<R['create']>;
export type UpdateOf<R extends Resource> = z.input<R['update']>;
export type QueryOf<R extends Resource> = z.input<R['query']>;

/** The spec §8 messages of one resource, as descriptor + values, for client and server alike. */
export function resourceMessages(resource: Pick<Resource, 'label'>, t: (d: MessageDescriptor) => string) {
  const item = t(resource.label.one);
  const items = t(resource.label.other);
  const Item = item.charAt(0).toUpperCase() + item.slice(1);
  return {
    loadFailed: [messages.loadFailed, { items }],
    createFailed: [messages.createFailed, { item }],
    updateFailed: [messages.updateFailed, { item }],
    deleteFailed: [messages.deleteFailed, { item }],
    created: [messages.created, { Item }],
    updated: [messages.updated, { Item }],
    deleted: [messages.deleted, { Item }],
    conflict: [messages.versionConflict, { item }],
  } as const satisfies Record<string, readonly [MessageDescriptor, Record<string, string>]>;
}
