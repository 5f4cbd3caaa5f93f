import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { HttpError } from '../http/errors';
import type { Db } from '../store/store';

export type Row = Record<string, unknown> & { id: string; version: number; createdAt: Date; updatedAt: Date };
export type Values = Record<string, unknown>;
/** The request's transaction, for hooks that write beside the row. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * How an entry's rows sit in its table (ADR 011), beyond its scope:
 * - `rows`: the part of the table that is this entry's (admins, owners and team members share `users`);
 * - `ownedThrough`: an owner column that names a row of another table, whose own owner column
 *   makes its owner one of this row's (a website's partner record → the record's owner).
 */
export interface TableOptions {
  /** Its rows are those whose `column` (a key of the table) holds one of `in` (accounts by their type). */
  rows?: { column: string; in: readonly string[] };
  /** The column holding the storage key of the entry's `image`. */
  imageColumn?: string;
  /** Other columns holding storage keys of files a row owns (a media record's file and its thumbnail). */
  fileColumns?: readonly string[];
  ownedThrough?: Readonly<Record<string, { table: PgTable; owner: string }>>;
  /** The table of the entry's `parent` (a menu for its items): a parent outside the website answers 404. */
  parentTable?: PgTable;
}

/**
 * What a module's own routes reuse of an entry's: its list (narrowed further, or, for a route
 * whose policy already decided, not to the rows the caller may see) and the entity as the wire shows it.
 */
export interface ResourceRoutes {
  list(request: FastifyRequest, narrower?: SQL, visible?: boolean): Promise<unknown>;
  entity(request: FastifyRequest, row: Row, reveal?: Values): Values;
  /** What a versioned change that matched no row of `where` answers: 404 when there is none, else 409 with it. */
  missOrConflict(request: FastifyRequest, where: SQL | undefined): Promise<HttpError>;
  /** Fastify schemas of a list route (query and answer) and of an entity's answer. */
  listSchema: { querystring: z.core.$ZodType; response: { 200: z.core.$ZodType } };
  entitySchema: { response: { 200: z.core.$ZodType } };
}
