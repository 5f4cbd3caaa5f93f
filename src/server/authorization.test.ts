// @vitest-environment node
import { eq, getTableColumns, getTableName } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { bearer, tokenFor } from '../../tests/support/auth';
import { seedCast, UNKNOWN_ID, type Cast, type Method } from '../../tests/support/cast';
import { storeKinds } from '../../tests/support/store';
import { messages } from '../contract/messages';
import { CMS_MODULES, FEATURES, LEVELS, levelAtLeast, type CmsModule, type Feature, type Level, type Policy, type RoleInfo } from '../contract/permissions';
import { uuidv7 } from '../contract/uuid';
import type { WebsiteSource } from './policy';
import type { Db, Store } from './store/open';
import { teamRoles, users } from './store/schema';

/*
 * The authorization matrix (spec §6, ADR 009) over every route the app registers, found as the app
 * registers them (an `onRoute` hook put on the app as Fastify makes it: buildApp has registered
 * every route by the time it returns), so a module added later is checked without naming its paths
 * here. For each route with a website policy, team members of the route's
 * website call it: every level of the route's CMS module (view → list/get, edit → update, manage →
 * create/delete), the module's level without the cms flag, every other module's manage, each
 * feature flag alone and every flag but it; a member of another website calls it too.
 *
 * Allowed means "past the policy": any answer but 401, 403 and a 5xx. A dummy id (and an empty
 * body) then still answers 404 or 400 from the route itself, which is all this needs to know. Where
 * the route's website comes from a row (`/contact-forms/form/:formId`), a dummy id would be
 * refused before the policy is even asked (404), so such routes get a real row of their table on
 * the website, made from the table's own columns. Refused means exactly 403 with the translated
 * message; another website's member hears 404, as for an unknown website.
 */

const captured = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const capturing = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => void captured.push(route));
    return app;
  }) as typeof actual.default;
  return { ...actual, default: capturing };
});

type WebsitePolicy = Extract<Policy, object>;
interface WebsiteRoute {
  method: Method;
  url: string;
  policy: WebsitePolicy;
  source: WebsiteSource;
}
type Headers = Record<string, string>;

const NO_FLAGS = { cms: false, seo: false, team: false, settings: false };
const EVERY_FLAG = { cms: true, seo: true, team: true, settings: true };
const allModules = (level: Level, except?: CmsModule) => Object.fromEntries(CMS_MODULES.map((module) => [module, module === except ? 'none' : level]));

/** The roles the matrix calls with, by a name that says what they hold. */
function matrixRoles(): Record<string, RoleInfo> {
  const roles: Record<string, RoleInfo> = {
    // Every module at manage and every other flag, but no cms flag: the CMS stays shut.
    'cms off': { permissions: { ...EVERY_FLAG, cms: false }, cmsPermissions: allModules('manage') },
    nothing: { permissions: NO_FLAGS, cmsPermissions: {} },
  };
  for (const module of CMS_MODULES) {
    for (const level of LEVELS) roles[`${module} ${level}`] = { permissions: { ...NO_FLAGS, cms: true }, cmsPermissions: { [module]: level } };
    roles[`all but ${module}`] = { permissions: EVERY_FLAG, cmsPermissions: allModules('manage', module) };
  }
  for (const flag of ['cms', ...FEATURES] as const) {
    roles[`only ${flag}`] = { permissions: { ...NO_FLAGS, [flag]: true }, cmsPermissions: {} };
    roles[`all but ${flag}`] = { permissions: { ...EVERY_FLAG, [flag]: false }, cmsPermissions: flag === 'cms' ? {} : allModules('manage') };
  }
  return roles;
}

/** Members of one website, one per role, each signed in. Inserted directly: nobody signs in with a password here. */
async function seedMembers(store: Store, websiteId: string, roles: Record<string, RoleInfo>): Promise<Map<string, Headers>> {
  const db = store.db;
  const signedIn = new Map<string, Headers>();
  for (const [name, info] of Object.entries(roles)) {
    const [role] = await db.insert(teamRoles).values({ websiteId, name, ...info }).returning();
    const tag = uuidv7();
    const [user] = await db
      .insert(users)
      .values({ type: 'teammember', email: `${tag}@matrix.example.test`, username: `m-${tag}`, passwordHash: 'not a hash', verified: true, websiteId, teamRoleId: role!.id })
      .returning();
    signedIn.set(name, bearer(await tokenFor(store, user!.id)));
  }
  return signedIn;
}

let serial = 0;
/** A value a NOT NULL column without a default takes: plain enough for the checks a table is likely to have. */
function sample(column: PgColumn): unknown {
  serial += 1;
  switch (column.columnType) {
    case 'PgText':
    case 'PgVarchar':
      return `a${serial}`;
    case 'PgInteger':
    case 'PgSmallInt':
    case 'PgBigInt53':
    case 'PgReal':
    case 'PgDoublePrecision':
      return 1;
    case 'PgNumeric':
      return '1';
    case 'PgBoolean':
      return false;
    case 'PgEnumColumn':
      return (column as PgColumn & { enumValues: string[] }).enumValues[0];
    case 'PgJson':
    case 'PgJsonb':
      return {};
    case 'PgTimestamp':
      return new Date();
    case 'PgUUID':
      return uuidv7();
    case 'PgArray':
      return [];
    default:
      throw new Error(`no sample value for ${column.name} (${column.columnType})`);
  }
}

/**
 * A row of `table` on the website, from its columns: the website's id, a row of each table a
 * required key points at (made the same way, on the same website), and a sample for every other
 * required column.
 */
async function rowOn(db: Db, table: PgTable, websiteId: string): Promise<Record<string, unknown>> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keyOf = new Map(Object.entries(columns).map(([key, column]) => [column.name, key]));
  const values: Record<string, unknown> = {};
  for (const key of getTableConfig(table).foreignKeys) {
    const reference = key.reference();
    const required = reference.columns.some((column) => column.notNull && !column.hasDefault && column.name !== 'website_id');
    if (!required || getTableName(reference.foreignTable) === 'websites') continue;
    const parent = await rowOn(db, reference.foreignTable, websiteId);
    const parentKeys = new Map(Object.entries(getTableColumns(reference.foreignTable) as Record<string, PgColumn>).map(([name, column]) => [column.name, name]));
    reference.columns.forEach((column, index) => {
      values[keyOf.get(column.name)!] = parent[parentKeys.get(reference.foreignColumns[index]!.name)!];
    });
  }
  for (const [key, column] of Object.entries(columns)) {
    if (key in values) continue;
    if (column.name === 'website_id') values[key] = websiteId;
    else if (column.notNull && !column.hasDefault) values[key] = sample(column);
  }
  try {
    const [row] = (await db.insert(table).values(values).returning()) as Record<string, unknown>[];
    return row!;
  } catch (error) {
    throw new Error(`could not make a row of ${getTableName(table)} for the matrix`, { cause: error });
  }
}

/** The routes with a website policy, as the app registered them. */
function websiteRoutes(all: readonly RouteOptions[]): WebsiteRoute[] {
  return all.flatMap((route) => {
    const policy = route.config?.policy;
    if (typeof policy !== 'object') return [];
    const source = route.config?.website ?? { from: 'path', param: 'websiteId' };
    return [route.method]
      .flat()
      .filter((method) => method !== 'HEAD' && method !== 'OPTIONS')
      .map((method) => ({ method: method as Method, url: route.url, policy, source }));
  });
}

/** What a member holding `role` should hear from a route with `policy`: allowed past it, or refused. */
function expectedFor(policy: WebsitePolicy, role: RoleInfo): 'allowed' | 'refused' {
  if ('level' in policy) return role.permissions.cms && levelAtLeast(role.cmsPermissions[policy.website] ?? 'none', policy.level) ? 'allowed' : 'refused';
  if (policy.website === 'member') return 'allowed';
  return role.permissions[policy.website] ? 'allowed' : 'refused';
}

const name = (route: WebsiteRoute) => `${route.method} ${route.url}`;

describe.each(storeKinds)('authorization of every website route (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let routes: WebsiteRoute[] = [];
  const roles = matrixRoles();
  let members = new Map<string, Headers>();
  /** A member of website B with every flag and level. */
  let stranger: Headers = {};
  /** The row each row-sourced route names, by its table. */
  const rows = new Map<PgTable, string>();

  beforeAll(async () => {
    captured.length = 0;
    test = await createTestApp({ kind });
    routes = websiteRoutes(captured);
    cast = await seedCast(test.store);
    members = await seedMembers(test.store, cast.site.A, roles);
    stranger = (await seedMembers(test.store, cast.site.B, { everything: { permissions: EVERY_FLAG, cmsPermissions: allModules('manage') } })).get('everything')!;
  });
  afterAll(() => test.app.close());

  /** The route's path on website A: the website's id, a real row where the route finds its website through one, dummy ids elsewhere. */
  async function pathOf(route: WebsiteRoute): Promise<string> {
    const { source } = route;
    let rowId = '';
    if (source.from === 'row') {
      const columns = getTableColumns(source.table) as Record<string, PgColumn>;
      const known = rows.get(source.table);
      // A call allowed before may have removed it.
      const still = known && (await test.store.db.select({ id: columns.id! }).from(source.table).where(eq(columns.id!, known)));
      rowId = still?.length ? known! : String((await rowOn(test.store.db, source.table, cast.site.A)).id);
      rows.set(source.table, rowId);
    }
    return route.url
      .replace(/:(\w+)/g, (_whole, param: string) => (param === source.param ? (source.from === 'row' ? rowId : cast.site.A) : UNKNOWN_ID))
      .replace('*', 'x');
  }

  const answer = async (route: WebsiteRoute, headers: Headers) =>
    test.app.inject({ method: route.method, url: await pathOf(route), headers, payload: ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined });

  /** Calls the route as the member holding `roleName` and checks the answer against the policy. */
  async function check(route: WebsiteRoute, roleName: string) {
    const res = await answer(route, members.get(roleName)!);
    const said = `${name(route)} as "${roleName}" → ${res.statusCode} ${res.body.slice(0, 200)}`;
    if (expectedFor(route.policy, roles[roleName]!) === 'refused') {
      expect(res.statusCode, said).toBe(403);
      expect(res.json().message, said).toBe(messages.forbidden.message);
    } else {
      expect([401, 403].includes(res.statusCode) || res.statusCode >= 500, said).toBe(false);
    }
  }

  const moduleRoutes = (module: CmsModule) => routes.filter((route) => 'level' in route.policy && route.policy.website === module);
  const flagRoutes = (flag: Feature | 'cms') => routes.filter((route) => !('level' in route.policy) && route.policy.website === flag);

  it('finds the website routes of every CMS module, of each feature, and the team’s own paths', () => {
    for (const module of CMS_MODULES) expect(moduleRoutes(module).length, `routes of ${module}`).toBeGreaterThan(0);
    for (const flag of FEATURES) expect(flagRoutes(flag).length, `routes of ${flag}`).toBeGreaterThan(0);
    // Every website route is one of the kinds the matrix knows.
    for (const route of routes) expect(['level' in route.policy, route.policy.website === 'member', ['cms', ...FEATURES].includes(route.policy.website)], name(route)).toContain(true);
    expect(flagRoutes('team').map(name)).toEqual(
      expect.arrayContaining([
        'GET /api/team/members/:websiteId',
        'POST /api/team/members/:websiteId',
        'GET /api/team/members/:websiteId/:memberId',
        'PUT /api/team/members/:websiteId/:memberId',
        'DELETE /api/team/members/:websiteId/:memberId',
        'GET /api/team-roles/:websiteId',
        'POST /api/team-roles/:websiteId/role',
        'GET /api/team-roles/:websiteId/role/:roleId',
        'PUT /api/team-roles/:websiteId/role/:roleId',
        'DELETE /api/team-roles/:websiteId/role/:roleId',
      ]),
    );
  });

  it.each(CMS_MODULES)('%s: every level is let past exactly the routes it covers, and neither the level without the cms flag nor other modules’ levels are', async (module) => {
    for (const route of moduleRoutes(module)) {
      for (const level of LEVELS) await check(route, `${module} ${level}`);
      await check(route, 'cms off');
      await check(route, `all but ${module}`);
    }
  });

  it('opens each feature’s routes to its flag alone, and not to every other flag together', async () => {
    for (const route of routes.filter((one) => !('level' in one.policy) && one.policy.website !== 'member')) {
      await check(route, `only ${route.policy.website}`);
      await check(route, `all but ${route.policy.website}`);
    }
  });

  it('lets every member of the website, whatever their role, reach the routes open to its members', async () => {
    for (const route of routes.filter((one) => one.policy.website === 'member')) await check(route, 'nothing');
  });

  it('answers 404 to a member of another website on every website route, as for an unknown website', async () => {
    for (const route of routes) {
      const res = await answer(route, stranger);
      expect(res.statusCode, `${name(route)} → ${res.statusCode}`).toBe(404);
    }
  });
});
