import type { MessageDescriptor } from '@lingui/core';
import { z } from 'zod/mini';
import type { PreviewKind } from './preview';
import { messages } from './messages';
import type { CmsModule, Feature, Policy } from './permissions';

/**
 * A resource as data (docs/design.md §3): the server's CRUD routes, the client's API, cache keys,
 * list and editor screens are all derived from one of these. ADR 009 explains the access and
 * scope model.
 */
type Shape = z.core.$ZodLooseShape;

/** What a route of a resource does; each has its own policy. */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';
export type Access = Readonly<Record<Operation, Policy>>;

/**
 * Whose rows these are, and so who may touch them.
 * - `global`: everyone's; the entry states who may read and who may write.
 * - `owner`: a user's (websites): admins see all; owners and partners the rows whose owner
 *   columns name them. The server stamps the first owner column with the caller on create and
 *   takes owner columns only from admins.
 *   `websites: true` says the rows are websites themselves: a website's team members then read
 *   it by its id, and with the settings flag edit it (spec §2: a member's Settings link is the
 *   website's edit form); lists, creates and deletes stay with owners and admins.
 * - `website`: one website's: the path (or the row a child id names) says which; its owner,
 *   partner and admins may do everything, its team members what their role's level for the
 *   module allows (view to read, edit to change, manage to create and delete), or its feature flag.
 */
export type ScopeConfig =
  | { scope: 'global'; access: { read: Policy; write: Policy } }
  | { scope: 'owner'; owners: readonly [string, ...string[]]; websites?: true }
  | { scope: 'website'; module: CmsModule; websiteParam?: string }
  | { scope: 'website'; feature: Feature; websiteParam?: string }
  /** Anyone of the website's people reaches the route; which rows each sees, the server's `narrow` hook decides (the activity log). */
  | { scope: 'website'; members: true; websiteParam?: string };

export interface ResourceConfig<Fields extends Shape, Computed extends Shape, Secret extends Shape, Filters extends Shape, Sort extends string> {
  /** Message values, cache keys and policy names derive from it. */
  name: string;
  /** Lower-case nouns for "Failed to load {items}", "{item} deleted successfully". */
  label: { one: MessageDescriptor; other: MessageDescriptor };
  /**
   * Wire paths exactly as the spec names them. The last `:param` of `item` is the record's id; any
   * other `:param` binds the entry to a website or a parent record (`:websiteId`, `:menuId`) and
   * the client fills it in (boundTo). `create` when the spec posts somewhere else than the list.
   * A singleton (one record per website) has no list.
   */
  paths: { list?: string; item: string; create?: string; stats?: string };
  /** One record per website (SEO, outgoing mail): no list, the item path names only the website. */
  singleton?: boolean;
  /**
   * Rows that belong to a record of another entry (a menu's items, a slider's slides): the path
   * parameter `param` names that record and is also the rows' own (server-owned) column. The
   * server stamps it from the path, lists only that parent's rows, and answers 404 for a parent
   * outside the website.
   */
  parent?: { param: string; resource: string };
  /**
   * Children in the order a person sets (contract/order.ts, ADR 012): a computed `position`, new
   * rows last, listed in that order; `PUT path` with `{ [field]: ids }` and `If-Match` the tag of
   * the order it was made from sets the whole order in one transaction.
   */
  order?: { path: string; field: string; failed: MessageDescriptor };
  /**
   * Records another route makes, never a JSON create: `upload`, the module's upload routes (media,
   * with the create policy); `visitor`, the delivery API on the website's key (a contact form's
   * submissions), so nobody signed in may create one.
   */
  createdBy?: 'upload' | 'visitor';
  /** The spec's own words for a failed create or update ("Failed to save SMTP configuration"). */
  saveFailed?: MessageDescriptor;
  /** The routes it has, when not all five: a log is only read (`['list', 'get']`). */
  operations?: readonly Operation[];
  /**
   * A draft a person may see as the website will show it (contract/preview.ts): `POST {item}/preview`,
   * with the read policy, answers the website's preview page with a token the delivery API takes
   * for this one record, for an hour. `kind` is what the website is told the record is.
   */
  preview?: { kind: PreviewKind };
  /** The fields a person edits and reads back: create takes all of them, update any of them. */
  fields: Fields;
  /** Fields only the server writes (a slug, a size, a key's prefix): returned, never taken from a body. */
  computed?: Computed;
  /** Fields only a person writes (a password, an SMTP password): taken on create and update, never returned. */
  secret?: Secret;
  /** Equality filters of the list query (spec §3 list query fields); each is a field of the entity. */
  filters: Filters;
  /**
   * A record's one image (a website's preview, the logo): a multipart upload to `path`, with the
   * update's policy, stored as WebP; the computed `field` holds the URL it is served at.
   */
  image?: { path: string; field: keyof Computed & string };
  /** Query parameters that shape the answer rather than filter it (a price for `partnerType`); a `present` hook reads them. */
  queryOptions?: Shape;
  /** Text fields the list's `search` matches (case-insensitive, anywhere in the text). */
  search: readonly (keyof (Fields & Computed) & string)[];
  /** Sortable fields; the first is the default. */
  sort: readonly [Sort, ...Sort[]];
  /** The order a list comes in when the query names none: ascending unless said (a log: newest first). */
  defaultOrder?: (typeof SORT_ORDERS)[number];
  /**
   * Fields only admins write (a partner's type, a website's status, an account's type): anyone
   * else's body has them dropped, so a create stores their default and an update keeps them.
   */
  adminOnly?: readonly (keyof Fields & string)[];
  /** Fields that must be unique (case-insensitively for text): a clash is a field error, not a 500. */
  unique?: readonly (keyof Fields & string)[];
  /** The field a person knows a record by: questions, pickers, the sync panel. */
  title: keyof (Fields & Computed) & string;
  /**
   * Fields that hold the id of another resource's record (by that resource's name), in the same
   * scope: a change is sent after the create of the record it points at, and pickers show names.
   */
  references?: Readonly<Partial<Record<keyof Fields & string, string>>>;
}

const id = z.uuid();

export const EntityBaseSchema = z.object({
  _id: id,
  version: z.int().check(z.positive()),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});

/** A list's figures (`paths.stats`): all rows, those made in the last RECENT_DAYS, and the count per value of each enum filter. */
export const StatsSchema = z.object({ total: z.int(), recent: z.int(), by: z.record(z.string(), z.record(z.string(), z.int())) });
export type Stats = z.infer<typeof StatsSchema>;
export const RECENT_DAYS = 30;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export const MAX_PAGE_SIZE = 100;
/**
 * How many children an ordered parent may have: a reorder names them all, so their list comes in
 * one page (a restaurant's menu of 2,000 dishes is one request, not twenty).
 */
export const MAX_ORDERED_CHILDREN = 5000;
export const DEFAULT_PAGE_SIZE = 10;

// A query string value the client left empty counts as not given (spec §5: empty filters are omitted).
// Typed as the optional it ends in: callers pass the field's own type, or nothing.
export const optionalQuery = <T extends z.core.SomeType>(schema: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(schema),
  ) as unknown as z.ZodMiniOptional<T>;

/** A whole number from a query string, within bounds. */
// Checked on the coerced number itself, not after a pipe: the API document then shows the bounds.
const queryInt = (min: number, max: number) => z.coerce.number().check(z.multipleOf(1), z.minimum(min), z.maximum(max));

const withoutDefault = (schema: z.core.SomeType): z.core.$ZodType =>
  schema instanceof z.core.$ZodDefault ? schema._zod.def.innerType : (schema as z.core.$ZodType);

/** The `:param` names of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

/** The policy of each operation, from the scope: a website's module levels, or the entry's own read and write. */
function accessOf(config: ScopeConfig): Access {
  switch (config.scope) {
    case 'global': {
      const { read, write } = config.access;
      return { list: read, get: read, create: write, update: write, delete: write };
    }
    case 'owner':
      // A website's record is reached like the website's other records (policy.ts): its team reads it.
      return config.websites
        ? { list: 'owner', get: { website: 'member' }, create: 'owner', update: { website: 'settings' }, delete: 'owner' }
        : { list: 'owner', get: 'owner', create: 'owner', update: 'owner', delete: 'owner' };
    case 'website': {
      if ('members' in config) {
        const policy = { website: 'member' } as const;
        return { list: policy, get: policy, create: policy, update: policy, delete: policy };
      }
      if ('feature' in config) {
        const policy = { website: config.feature } as const;
        return { list: policy, get: policy, create: policy, update: policy, delete: policy };
      }
      const at = (level: 'view' | 'edit' | 'manage') => ({ website: config.module, level }) as const;
      return { list: at('view'), get: at('view'), create: at('manage'), update: at('edit'), delete: at('manage') };
    }
  }
}

export function defineResource<
  Fields extends Shape,
  Filters extends Shape,
  Sort extends string,
  Computed extends Shape = Record<never, never>,
  Secret extends Shape = Record<never, never>,
>(config: ResourceConfig<Fields, Computed, Secret, Filters, Sort> & ScopeConfig) {
  const written = { ...config.fields, ...config.secret } as Fields & Secret;
  const owners: readonly string[] = config.scope === 'owner' ? config.owners : [];
  // Owner columns are the server's to stamp for everyone but admins, so no body needs them.
  const create = once(() => {
    const createShape = Object.fromEntries(
      Object.entries(written).map(([key, schema]) => [key, owners.includes(key) ? z.optional(withoutDefault(schema)) : schema]),
    ) as Fields & Secret;
    return z.extend(z.object(createShape), { _id: z.optional(id) });
  });
  // Zod applies a default even under optional(): an update that leaves a field out would reset
  // it. So an update takes every field optional *without* its default.
  const update = once(
    () =>
      z.object(Object.fromEntries(Object.entries(written).map(([key, schema]) => [key, z.optional(withoutDefault(schema))]))) as unknown as z.ZodMiniObject<{
        [K in keyof (Fields & Secret)]: z.ZodMiniOptional<(Fields & Secret)[K]>;
      }>,
  );
  const entity = once(() => z.extend(EntityBaseSchema, { ...config.fields, ...config.computed } as Fields & Computed));
  const filterShape = () =>
    Object.fromEntries(Object.entries(config.filters).map(([key, schema]) => [key, optionalQuery(schema)])) as unknown as {
      [K in keyof Filters]: z.ZodMiniOptional<Filters[K]>;
    };
  const query = once(() => z.object({
    page: z._default(optionalQuery(queryInt(1, 1_000_000)), 1),
    limit: z._default(optionalQuery(queryInt(1, config.order ? MAX_ORDERED_CHILDREN : MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
    search: optionalQuery(z.string().check(z.trim(), z.maxLength(200))),
    sortBy: optionalQuery(z.enum(config.sort)),
    sortOrder: optionalQuery(z.enum(SORT_ORDERS)),
    // The ids a picker shows that its page of options may lack (a reference past the first 100).
    ids: optionalQuery(z.pipe(z.string(), z.transform((text) => text.split(',').filter(Boolean)))),
    ...filterShape(),
    ...Object.fromEntries(Object.entries(config.queryOptions ?? {}).map(([key, schema]) => [key, optionalQuery(schema)])),
  }));
  const singleton = config.singleton === true;
  // A singleton's path names only its website; any other item path ends in the record's id.
  const itemParam = singleton ? null : pathParams(config.paths.item).at(-1)!;
  const boundParams = [...new Set([...Object.values(config.paths), config.order?.path].flatMap((path) => pathParams(path ?? '')))].filter((name) => name !== itemParam);
  return {
    ...config,
    /** Who may call each route (docs/design.md §5), derived from the scope. */
    access: config.createdBy === 'visitor' ? { ...accessOf(config), create: 'apiKey' as const } : accessOf(config),
    /** The owner columns of an owner-scoped resource; none otherwise. */
    owners,
    /** Fields only admins write (owner columns are, too). */
    adminOnly: [...owners, ...(config.adminOnly ?? [])] as readonly string[],
    /** The `:param`s of its paths besides the record's id (`websiteId`): the client fills them in (boundTo). */
    boundParams,
    /** Which website or parent record this copy of the entry is bound to (boundTo), its bound parameters joined; '' when none. */
    boundKey: '',
    /** The path parameter that names the website, for a website-scoped resource. */
    websiteParam: config.scope === 'website' ? (config.websiteParam ?? 'websiteId') : null,
    /** The path parameter that names the record; none for a singleton. */
    itemParam,
    // The schemas are made when first read: the app's shared chunk defines every entry, a screen
    // reads the schemas of two or three, and making them all cost ~90 ms on a slow phone.
    /** What the server returns: the fields and computed fields, `_id`, `version` and the timestamps. */
    get entity() {
      return entity();
    },
    /** A create may name its own UUID (docs/design.md §4), so an offline create can be edited before it syncs. */
    get create() {
      return create();
    },
    get update() {
      return update();
    },
    get query() {
      return query();
    },
  };
}

/** `make`'s value, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Any resource. Its query's shape follows the entry's filters, so all that resources share there is "an object schema". */
export type Resource = Omit<ReturnType<typeof defineResource<Shape, Shape, string, Shape, Shape>>, 'query'> & { query: z.ZodMiniObject };

/** Whether the entry has a route for this operation (`operations`; unset: all five). */
export const offers = (resource: Pick<Resource, 'operations'>, operation: Operation): boolean => !resource.operations || resource.operations.includes(operation);

/** Whether an export of a contract file is a registry entry (a file also holds actions and schemas). */
export const isResource = (value: unknown): value is Resource => typeof value === 'object' && value !== null && 'paths' in value && 'access' in value && 'name' in value;
export type EntityOf<R extends Resource> = z.infer<R['entity']>;
export type CreateOf<R extends Resource> = z.input<R['create']>;
export type UpdateOf<R extends Resource> = z.input<R['update']>;
export type QueryOf<R extends Resource> = z.input<R['query']>;
/** The values of a resource's bound parameters (`{ websiteId }`); empty for an entry bound to nothing. */
export type BoundParams = Readonly<Record<string, string>>;

/**
 * A path with its `:param`s filled in; every one must be given, unless `keep` names it (a website
 * filled in before the record's id is known).
 */
export function fillPath(path: string, params: BoundParams, keep: readonly string[] = []): string {
  return path.replace(/:(\w+)/g, (whole, name: string) => {
    const value = params[name];
    if (value) return encodeURIComponent(value);
    if (keep.includes(name)) return whole;
    throw new Error(`No value for :${name} in ${path}`);
  });
}

/**
 * The entry bound to one website or parent record: its bound parameters filled in, so its paths
 * lead there, and its `boundKey` set, which keeps its cached pages and pending changes apart from
 * other websites' and records'. Every client layer takes such a copy as it takes an unbound entry.
 */
export function boundTo<R extends Resource>(resource: R, params: BoundParams): R {
  if (resource.boundParams.length === 0) return resource;
  const keep = resource.itemParam ? [resource.itemParam] : [];
  const fill = (path: string | undefined) => (path === undefined ? undefined : fillPath(path, params, keep));
  const paths = { list: fill(resource.paths.list), item: fill(resource.paths.item)!, create: fill(resource.paths.create), stats: fill(resource.paths.stats) };
  const image = resource.image && { ...resource.image, path: fill(resource.image.path)! };
  const order = resource.order && { ...resource.order, path: fill(resource.order.path)! };
  return { ...resource, paths, image, order, boundKey: resource.boundParams.map((name) => params[name]).join('/') };
}

/** The record an entry's rows belong to (`parent`), as a copy bound by boundTo names it; null when none is. */
export function parentIdOf(resource: Pick<Resource, 'parent' | 'boundParams' | 'boundKey'>): string | null {
  const at = resource.parent ? resource.boundParams.indexOf(resource.parent.param) : -1;
  return (at >= 0 && resource.boundKey.split('/')[at]) || null;
}

/** How a person knows a record: its title field, else its id. */
export function titleOf(resource: Pick<Resource, 'title'>, row: Record<string, unknown> | null | undefined): string {
  const title = row?.[resource.title];
  return typeof title === 'string' && title ? title : String(row?.id ?? row?._id ?? '');
}

/** The spec §8 messages of one resource, as descriptor + values, for client and server alike. */
export function resourceMessages(resource: Pick<Resource, 'label' | 'saveFailed'>, t: (d: MessageDescriptor) => string) {
  const item = t(resource.label.one);
  const items = t(resource.label.other);
  const Item = item.charAt(0).toUpperCase() + item.slice(1);
  return {
    loadFailed: [messages.loadFailed, { items }],
    createFailed: resource.saveFailed ? [resource.saveFailed, {}] : [messages.createFailed, { item }],
    updateFailed: resource.saveFailed ? [resource.saveFailed, {}] : [messages.updateFailed, { item }],
    deleteFailed: [messages.deleteFailed, { item }],
    created: [messages.created, { Item }],
    updated: [messages.updated, { Item }],
    deleted: [messages.deleted, { Item }],
    conflict: [messages.versionConflict, { item }],
  } as const satisfies Record<string, readonly [MessageDescriptor, Record<string, string>]>;
}
