import { getTableColumns, getTableName, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { pathParams, type Resource } from '../../contract/resource';
import type { ServerContext } from '../context';
import type { FileStorage } from '../files/storage';
import type { Db } from '../store/store';
import type { ResourceHooks } from './hooks';
import type { TableOptions } from './types';

/**
 * One entry over its table, resolved once when its routes are registered: what each part (the
 * visible rows, reads, writes, reorder, upload) is handed, so none looks it up again per request.
 */
export interface ResourceContext {
  resource: Resource;
  table: PgTable;
  tableName: string;
  db: Db;
  clock: () => Date;
  hooks: ResourceHooks;
  /** The part of the table that is this entry's (`TableOptions.rows`); none: all of it. */
  rows: SQL | undefined;
  /** Whether a row as the database names its columns (a revision's values) is of this entry's part of the table. */
  owns(stored: Readonly<Record<string, unknown>>): boolean;
  /** That part as the database names its column (`type` in …): what a query over revisions tells entries of one table apart by. */
  part?: { column: string; in: readonly string[] };
  ownedThrough: NonNullable<TableOptions['ownedThrough']>;
  /** A column of the table, by its key: each one the entry names was checked to be there. */
  column(key: string): PgColumn;
  fieldKeys: string[];
  /** What an answer shows besides the entity base: the fields and computed fields. */
  shownKeys: string[];
  /** The shown keys whose column is a moment kept as text (`timestamp` in `mode: 'string'`): shown in ISO 8601, as the contract reads them. */
  instants: ReadonlySet<string>;
  singleton: boolean;
  /** The entry's `parent`, with the table its records sit in. */
  parent?: { param: string; table: PgTable };
  /** The entry's `image`, with the column holding its storage key and the storage. */
  image?: { path: string; field: string; column: string; files: FileStorage };
  /** The files a row owns (its image, a media record's file): keys and database names of their columns, and the storage (crud/files.ts). */
  files?: { columns: { key: string; name: string }[]; storage: FileStorage };
}

/** The entry checked against its table (a mismatch stops the server at its start), resolved once. */
export function resourceContext(
  { store, clock, files }: Pick<ServerContext, 'store' | 'clock'> & Partial<Pick<ServerContext, 'files'>>,
  resource: Resource,
  table: PgTable,
  hooks: ResourceHooks,
  { rows, ownedThrough = {}, imageColumn, fileColumns = [], parentTable }: TableOptions,
): ResourceContext {
  const tableName = getTableName(table);
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const fieldKeys = Object.keys(resource.fields);
  const shownKeys = [...fieldKeys, ...Object.keys(resource.computed ?? {})];
  const scopeColumns = resource.scope === 'website' ? ['websiteId'] : resource.owners;
  const image = resource.image;
  if (image && (!imageColumn || !files)) throw new Error(`Resource ${resource.name}: an image needs its column and the file storage`);
  const fileKeys = [...(image ? [imageColumn!] : []), ...fileColumns];
  if (fileKeys.length > 0 && (!files || fileKeys.some((key) => !columns[key]))) throw new Error(`Resource ${resource.name}: its files need their columns and the file storage`);
  // An optional computed field may live only in answers (a new key, revealed once by a hook).
  const columnKeys = shownKeys.filter((key) => key !== image?.field && !(resource.computed?.[key] instanceof z.core.$ZodOptional));
  const needed = ['id', 'version', 'createdAt', 'updatedAt', ...columnKeys, ...Object.keys(resource.filters), ...resource.sort, ...scopeColumns, ...(rows ? [rows.column] : [])];
  const missing = needed.filter((key) => !columns[key]);
  if (missing.length > 0) throw new Error(`Resource ${resource.name}: table ${tableName} has no column for ${missing.join(', ')}`);
  if (resource.scope === 'website' && 'websiteId' in resource.fields) throw new Error(`Resource ${resource.name}: websiteId is the server's, not a field`);
  const parent = resource.parent;
  if (parent && (!parentTable || !columns[parent.param] || resource.scope !== 'website')) throw new Error(`Resource ${resource.name}: a parent needs its table and column, in a website`);
  // Only an item path may leave the parent out: a list or a create without it would mix or orphan children.
  if (parent && ![resource.paths.list, resource.paths.create ?? resource.paths.list, resource.order?.path].every((path) => !path || pathParams(path).includes(parent.param))) {
    throw new Error(`Resource ${resource.name}: its list, create and order paths must name the parent`);
  }
  const part = rows && { column: columns[rows.column]!.name, in: rows.in };
  if (resource.order && !columns.position) throw new Error(`Resource ${resource.name}: an order needs a position column`);
  return {
    resource,
    table,
    tableName,
    db: store.db,
    clock,
    hooks,
    rows: rows && inArray(columns[rows.column]!, [...rows.in]),
    ...(part && { part }),
    owns: (stored) => !part || part.in.includes(stored[part.column] as string),
    ownedThrough,
    column: (key) => columns[key]!,
    fieldKeys,
    shownKeys,
    // The database writes "2030-01-01 00:00:00+00"; a string-mode column takes ISO as it comes.
    instants: new Set(shownKeys.filter((key) => columns[key]?.columnType === 'PgTimestampString')),
    singleton: resource.singleton === true,
    ...(parent && { parent: { param: parent.param, table: parentTable! } }),
    ...(image && { image: { path: image.path, field: image.field, column: imageColumn!, files: files! } }),
    ...(fileKeys.length > 0 && { files: { columns: fileKeys.map((key) => ({ key, name: columns[key]!.name })), storage: files! } }),
  };
}

/**
 * Every entry registered on an app, by the table its rows sit in: what reads rows of many entries
 * at once (a website's activity, its recycle bin) shows each as its entry does. A table several
 * entries share (`users`) tells them apart by their `rows`.
 */
export type RegisteredEntries = Map<string, ResourceContext[]>;

/** The entry a row of `tableName` (its columns as the database names them) belongs to; undefined for a table no entry shows. */
export function entryOfRow(entries: RegisteredEntries, tableName: string, stored: Readonly<Record<string, unknown>>): ResourceContext | undefined {
  return entries.get(tableName)?.find((context) => context.owns(stored));
}
