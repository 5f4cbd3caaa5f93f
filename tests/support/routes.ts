import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifySchema, RouteOptions } from 'fastify';
import type { Policy } from '../../src/contract/permissions';
import type { Resource } from '../../src/contract/resource';
import type { TableOptions } from '../../src/server/crud';
import type { WebsiteSource } from '../../src/server/policy';
import type { Method } from './cast';

/*
 * The app's own route list, as the app registers it, for the suites that go over every route
 * (authorization matrix, mass assignment, fuzzing). A test file installs the two capturing
 * factories with vi.mock (a mock has to be declared in the test file itself):
 *
 *   vi.mock('fastify', async (original) => (await import('../../tests/support/routes')).capturingFastify(await original()));
 *   vi.mock('./crud', async (original) => (await import('../../tests/support/routes')).capturingCrud(await original()));
 *
 * and then builds its app inside `captureRoutes`. Each route comes with its declared policy, where
 * its website comes from, its Zod schemas as fastify-type-provider-zod receives them, and, for the
 * routes `registerResource` made, the registry entry and the table the server pairs it with.
 */

/** A registry entry as the server registered it: its table and how its rows sit there. */
export interface Registered {
  resource: Resource;
  table: PgTable;
  options: TableOptions;
}

export interface AppRoute {
  method: Method | 'OPTIONS';
  url: string;
  policy: Policy;
  website?: WebsiteSource;
  schema: FastifySchema;
  registered?: Registered;
}

type Fastify = typeof import('fastify');
type Crud = typeof import('../../src/server/crud');

let seen: { route: RouteOptions; registered?: Registered }[] = [];
let resources: Registered[] = [];
let registering: Registered | undefined;

/** Fastify whose every instance reports its routes here as they are added. */
export function capturingFastify(actual: Fastify) {
  const capturing = ((options?: Parameters<Fastify['default']>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => void seen.push({ route, registered: registering }));
    return app;
  }) as Fastify['default'];
  return { ...actual, default: capturing };
}

/** crud/ whose `registerResource` says which entry and table the routes it adds belong to. */
export function capturingCrud(actual: Crud): Crud {
  const registerResource: Crud['registerResource'] = (app, ctx, resource, table, hooks, options = {}) => {
    const registered = { resource, table, options };
    resources.push(registered);
    registering = registered;
    try {
      return actual.registerResource(app, ctx, resource, table, hooks, options);
    } finally {
      registering = undefined;
    }
  };
  return { ...actual, registerResource };
}

/** The capture under way: one app is built at a time, its routes noted apart from another's. */
let capturing: Promise<unknown> = Promise.resolve();

/** The API routes and registry entries of the app `build` makes (HEAD routes are their GET's). */
export function captureRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: AppRoute[]; resources: Registered[] }> {
  const captured = capturing.then(() => captureOne(build));
  capturing = captured.catch(() => undefined);
  return captured;
}

async function captureOne<T>(build: () => Promise<T>): Promise<{ built: T; routes: AppRoute[]; resources: Registered[] }> {
  seen = [];
  resources = [];
  const built = await build();
  if (seen.length === 0) throw new Error('No route was captured: is vi.mock(fastify, capturingFastify) in the test file?');
  const routes = seen.flatMap(({ route, registered }) => {
    const policy = route.config?.policy;
    if (!policy) return [];
    return [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      // Without a source a website policy reads `:websiteId` (policy.ts).
      .map((method) => ({
        method: method as AppRoute['method'],
        url: route.url,
        policy,
        website: route.config?.website ?? (typeof policy === 'object' ? ({ from: 'path', param: 'websiteId' } as const) : undefined),
        schema: route.schema ?? {},
        registered,
      }));
  });
  return { built, routes, resources: [...resources] };
}

export const routeName = (route: Pick<AppRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;
