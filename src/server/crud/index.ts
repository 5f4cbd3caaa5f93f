import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '../../contract/envelope';
import { MAX_ORDERED_CHILDREN, offers, pathParams, StatsSchema, type Operation, type Resource } from '../../contract/resource';
import { PreviewSchema, previewPath } from '../../contract/preview';
import type { ServerContext } from '../context';
import type { Policy, WebsiteSource } from '../policy';
import { missOrConflict, toEntity } from './answer';
import { resourceContext, type ResourceContext } from './context';
import type { ResourceHooks } from './hooks';
import { get, list, stats } from './read';
import { preview } from './preview';
import { reorder } from './reorder';
import type { ResourceRoutes, TableOptions } from './types';
import { upload } from './upload';
import { create, remove, save, update } from './write';

export { entryOfRow, type RegisteredEntries, type ResourceContext } from './context';
export { revisionShape } from './history';
export { restoreTransaction } from './recycle-bin';
export { dropFilesOfRecords } from './files';
export { composeHooks, type HookContext, type ResourceHooks } from './hooks';
export type { ResourceRoutes, Row, TableOptions, Tx } from './types';
export { expectedVersion } from './write';

/**
 * The CRUD routes of one registry entry over its table (docs/design.md §3-5, ADR 009): list with
 * search, filters, sort and pagination; get; create (with an optional client-chosen `_id`); update
 * and delete guarded by `If-Match`; for a singleton, the one record of a website. Each route's
 * policy comes from the entry's access; a website-scoped route names where its website comes from
 * and the policy guard resolves it into `request.website`. Call it before `app.ready()`, on an app
 * whose policies are registered (buildApp does both).
 */
export function registerResource(
  app: FastifyInstance,
  server: Pick<ServerContext, 'store' | 'clock'> & Partial<Pick<ServerContext, 'files' | 'entries' | 'secret'>>,
  resource: Resource,
  table: PgTable,
  hooks: ResourceHooks = {},
  options: TableOptions = {},
): ResourceRoutes {
  const context = resourceContext(server, resource, table, hooks, options);
  server.entries?.set(context.tableName, [...(server.entries.get(context.tableName) ?? []), context]);
  const route = app.withTypeProvider<ZodTypeProvider>();
  const entityResponse = successSchema(resource.entity);
  const listResponse = successSchema(z.array(resource.entity));
  const config = (operation: Operation, path: string, source?: WebsiteSource) => routeConfig(context, operation, path, source);
  const listPath = resource.paths.list;
  const createPath = resource.paths.create ?? (context.singleton ? resource.paths.item : listPath);
  if (!createPath) throw new Error(`Resource ${resource.name}: no path to create on`);

  const statsPath = resource.paths.stats;
  if (statsPath) {
    route.get(statsPath, { config: config('list', statsPath), schema: { ...operationNames(resource, 'stats'), ...paramsSchema(statsPath), response: { 200: successSchema(StatsSchema) } } }, (request) => stats(context, request));
  }
  if (resource.order) {
    const { path, field } = resource.order;
    route.put(
      path,
      {
        config: config('update', path),
        schema: { ...operationNames(resource, 'reorder'), ...paramsSchema(path), body: z.object({ [field]: z.array(z.string()).max(MAX_ORDERED_CHILDREN) }), response: { 200: successSchema(z.object({ [field]: z.array(z.string()) })) } },
      },
      (request, reply) => reorder(context, request, reply),
    );
  }
  const image = context.image;
  if (image) {
    route.post(image.path, { config: { ...config('update', image.path), multipart: true }, schema: { ...operationNames(resource, 'image'), ...paramsSchema(image.path), response: { 200: entityResponse } } }, (request, reply) => upload(context, request, reply));
  }

  const itemPath = resource.paths.item;
  const itemParams = paramsSchema(itemPath);
  if (listPath && sameShape(listPath, itemPath)) {
    // The spec gives one path two meanings (a website's list, a record by its id): one route, and
    // what the id turned out to be decides (policy.ts resolves it as 'row-or-path').
    const source: WebsiteSource = { from: 'row-or-path', param: resource.itemParam!, table };
    route.get(
      itemPath,
      { config: config('get', itemPath, source), schema: { ...operationNames(resource, 'listOrGet'), ...itemParams, querystring: resource.query, response: { 200: z.union([entityResponse, listResponse]) } } },
      (request, reply) => (request.website?.named === 'row' ? get(context, request, reply) : list(context, request)),
    );
  } else {
    if (listPath) {
      route.get(listPath, { config: config('list', listPath), schema: { ...operationNames(resource, 'list'), ...paramsSchema(listPath), querystring: resource.query, response: { 200: listResponse } } }, (request) => list(context, request));
    }
    route.get(itemPath, { config: config('get', itemPath), schema: { ...operationNames(resource, 'get'), ...itemParams, response: { 200: entityResponse } } }, (request, reply) => get(context, request, reply));
  }
  if (resource.preview) {
    const { secret } = server;
    if (!secret) throw new Error(`Resource ${resource.name}: a preview needs the server's secret`);
    const path = previewPath(itemPath);
    route.post(path, { config: config('get', path), schema: { ...operationNames(resource, 'preview'), ...itemParams, response: { 200: successSchema(PreviewSchema) } } }, (request) => preview(context, request, secret));
  }
  const has = (operation: Operation) => offers(resource, operation);
  // The installation's one record (a global singleton) always exists, made by its migration: it is read and changed, never made or removed.
  const lasting = context.singleton && resource.scope === 'global';
  if (!lasting && !resource.createdBy && has('create')) {
    route.post(createPath, { config: config('create', createPath), schema: { ...operationNames(resource, 'create'), ...paramsSchema(createPath), body: resource.create, response: { 201: entityResponse } } }, (request, reply) => create(context, request, reply));
  }
  if (has('update')) {
    const answers = context.singleton ? { 200: entityResponse, 201: entityResponse } : { 200: entityResponse };
    route.put(itemPath, { config: config('update', itemPath), schema: { ...operationNames(resource, context.singleton ? 'save' : 'update'), ...itemParams, body: resource.update, response: answers } }, (request, reply) =>
      context.singleton ? save(context, request, reply) : update(context, request, reply),
    );
  }
  if (!lasting && has('delete')) {
    route.delete(itemPath, { config: config('delete', itemPath), schema: { ...operationNames(resource, 'delete'), ...itemParams, response: { 200: successSchema(z.object({ _id: z.string() })) } } }, (request) => remove(context, request));
  }
  return {
    list: (request, narrower, visible) => list(context, request, narrower, visible),
    entity: (request, row, reveal) => toEntity(context, request, row, reveal),
    missOrConflict: (request, where) => missOrConflict(context, request, where),
    listSchema: { querystring: resource.query, response: { 200: listResponse } },
    entitySchema: { response: { 200: entityResponse } },
  };
}

/** A route's policy and, for a website-scoped entry, where its website comes from. */
/** What each route of an entry is called in the API document: its operationId and summary, from the entry's name and label. */
const OPERATION_WORDS = {
  list: ['list', (one: string, other: string) => `Lists ${other}: search, filters, sort and pages.`],
  get: ['get', (one: string) => `Reads one ${one}.`],
  listOrGet: ['get', (one: string, other: string) => `One ${one} by its id, or the ${other} of a website by the website's id.`],
  create: ['create', (one: string) => `Creates one ${one}.`],
  update: ['update', (one: string) => `Changes one ${one}; If-Match names the version the change is made from.`],
  save: ['save', (one: string) => `Saves the website's ${one}; its first save makes it.`],
  delete: ['delete', (one: string) => `Deletes one ${one}; If-Match names the version deleted.`],
  stats: ['count', (_one: string, other: string) => `Counts ${other}: all, recent, and per status.`],
  reorder: ['reorder', (_one: string, other: string) => `Sets the order of ${other}; If-Match names the order it is made from.`],
  image: ['upload', (one: string) => `Uploads the image of one ${one} (multipart).`],
  preview: ['preview', (one: string) => `A link to the website's preview page that shows this ${one} as a draft, for an hour.`],
} as const satisfies Record<string, readonly [string, (one: string, other: string) => string]>;

function operationNames(resource: Resource, operation: keyof typeof OPERATION_WORDS) {
  const [verb, summary] = OPERATION_WORDS[operation];
  const name = resource.name.charAt(0).toUpperCase() + resource.name.slice(1);
  return { operationId: `${verb}${name}${operation === 'image' ? 'Image' : ''}`, summary: summary(resource.label.one.message ?? resource.name, resource.label.other.message ?? resource.name) };
}

function routeConfig({ resource, table, parent }: ResourceContext, operation: Operation, path: string, source?: WebsiteSource): { policy: Policy; website?: WebsiteSource } {
  const policy = resource.access[operation];
  // A website's own record: the route's id is the website the guard resolves.
  if (resource.scope === 'owner' && typeof policy === 'object') return { policy, website: { from: 'path', param: resource.itemParam! } };
  if (resource.scope !== 'website') return { policy };
  const param = resource.websiteParam!;
  const named = pathParams(path);
  // The website is named by the path, else by the parent it names (`/gastro-menus/:menuId/items`),
  // else by the row itself (`/gastro-menus/items/:itemId`).
  const website: WebsiteSource =
    source ??
    (named.includes(param)
      ? { from: 'path', param }
      : parent && named.includes(parent.param)
        ? { from: 'row', param: parent.param, table: parent.table }
        : { from: 'row', param: resource.itemParam!, table });
  return { policy: resource.access[operation], website };
}

const paramsSchema = (path: string) => {
  const names = pathParams(path);
  // Strings, not UUIDs: a malformed id is answered like an unknown one (404), not as bad input.
  return names.length > 0 ? { params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) } : {};
};

/** Two paths Fastify cannot tell apart: the same segments, whatever their parameters are called. */
const sameShape = (a: string, b: string) => a.replace(/:\w+/g, ':') === b.replace(/:\w+/g, ':');
