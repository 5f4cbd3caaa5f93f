// @vitest-environment node
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { logBuffer, seedCanaries, type Canaries } from '../../tests/support/canaries';
import { seedCast, type Cast } from '../../tests/support/cast';
import { watchChanges } from '../../tests/support/changes';
import { keepKey, keepSignedIn, matrixRoles, seedPrincipals, type Principal, type Principals } from '../../tests/support/principals';
import { captureRoutes, routeName, type AppRoute } from '../../tests/support/routes';
import { expected, rolesFor, type WebsitePolicy } from '../../tests/support/policy-table';
import { storeKinds } from '../../tests/support/store';
import { World, type Target } from '../../tests/support/world';
import { messages } from '../contract/messages';
import { MODULES } from '../contract/modules';
import { CMS_MODULES, FEATURES } from '../contract/permissions';

/*
 * The authorization matrix (docs/design.md §5, spec §6, ADR 009): every route the app registers,
 * found as it registers them (tests/support/routes.ts), so a module added later is checked without
 * naming its paths here; called by every principal (tests/support/principals.ts) on real rows of
 * website A (tests/support/world.ts): A's owner, its partner and its team's members call their own
 * rows, B's owner, B's member and B's key call a foreign website's. What each should hear comes
 * from the route's declared policy and who calls (tests/support/policy-table.ts), never from the
 * server's own permission code; a policy or a path parameter the table cannot read fails the suite.
 *
 * Allowed means past the policy: the real row is found (an update with a stale version hears 409
 * with it, an empty body 400), anything but 401, 403, 404 and 5xx. Refused means exactly 401
 * (no session, or no key where a key is wanted), 403 (the caller's type or role is short) or 404
 * (a website, partner record or session that is not the caller's, answered as an unknown one),
 * each with its translated message, and not one row changed. Updates and deletes carry a stale
 * If-Match, so an allowed call changes nothing either and every caller meets the same rows.
 *
 * Team members of A hold the roles `matrixRoles` names; each route is called by the ones its
 * policy tells apart (every level of its module, the module without the cms flag and every other
 * module at manage; its flag alone and every flag but it), and by one holding nothing and one
 * holding everything. Every answer and every log line is searched for the secrets of
 * tests/support/canaries.ts.
 */

vi.mock('fastify', async (original) => (await import('../../tests/support/routes')).capturingFastify(await original()));
vi.mock('./crud', async (original) => (await import('../../tests/support/routes')).capturingCrud(await original()));

/** Where a website route finds its website, as the policy list shows it. */
const sourceOf = (route: AppRoute) => (route.website ? ` (website from ${route.website.from} :${route.website.param})` : '');

/** The answer's envelope, if it is JSON at all. */
function envelope(res: LightMyRequestResponse): { success?: unknown; message?: unknown } | undefined {
  try {
    return res.json();
  } catch {
    return undefined;
  }
}

const REFUSALS = { 401: messages.unauthenticated, 403: messages.forbidden, 404: messages.notFound } as const;

/**
 * Other spellings of a path: none may reach a route past its policy. Fastify's router is exact about
 * slashes and case, so most of these reach no route at all (404); a percent-encoded letter reaches
 * the route itself, and with it its policy.
 */
function spellings(url: string): string[] {
  const [, first, ...rest] = url.split('/');
  const letter = url.search(/[a-z]/);
  return [
    `${url}/`,
    url.replace('/api/', '/api//'),
    `/${url}`,
    `/${first!.toUpperCase()}/${rest.join('/')}`,
    url.replace(/\/([a-z-]+)$/, (_whole, segment: string) => `/${segment.toUpperCase()}`),
    `${url.slice(0, letter)}%${url.charCodeAt(letter).toString(16)}${url.slice(letter + 1)}`,
    url.replace(/\/([0-9a-f]{8}-)/, (_whole, head: string) => `/%${head.charCodeAt(0).toString(16)}${head.slice(1)}`),
  ].filter((spelling) => spelling !== url);
}

describe.each(storeKinds)('authorization of every route (%s)', (kind) => {
  const log = logBuffer();
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let routes: AppRoute[] = [];
  let cast: Cast;
  let principals: Principals;
  let world: World;
  let canaries: Canaries;
  let changed: () => Promise<string[]>;
  const roles = matrixRoles();
  const figures = { cases: 0, allowed: 0, refused: { 401: 0, 403: 0, 404: 0 }, spellings: 0 };

  beforeAll(async () => {
    const captured = await captureRoutes(() => createTestApp({ kind, logger: log.logger }));
    test = captured.built;
    routes = captured.routes;
    cast = await seedCast(test.store);
    principals = await seedPrincipals(test.app, test.store, cast, roles);
    world = await new World(test.app, test.store, cast, captured.resources, () => principals.admin.headers).prepare();
    const { anonymous, admin, ownerA, ownerB, partner, memberB, keyA, keyB, members } = principals;
    changed = await watchChanges(test.store);
    canaries = await seedCanaries(test.app, test.store, cast, [anonymous, admin, ownerA, ownerB, partner, memberB, ...members.values()], [keyA, keyB]);
  });
  afterAll(async () => {
    console.info(`[matrix ${kind}] ${routes.length} routes, ${figures.cases} cases (${figures.allowed} allowed, refused ${JSON.stringify(figures.refused)}), ${figures.spellings} other spellings, ${canaries.list.length} canaries in ${canaries.looked} answers and log lines`);
    await test.app.close();
  });

  const callers = (route: AppRoute): Principal[] => {
    const { anonymous, admin, ownerA, ownerB, partner, memberB, keyA, keyB, members } = principals;
    return [anonymous, keyA, keyB, ownerB, memberB, partner, ownerA, admin, ...rolesFor(route.policy).map((name) => members.get(name)!)];
  };

  /** The keys back in place: an allowed call before made a new one or switched it off. */
  const keepKeys = async () => {
    for (const key of [principals.keyA, principals.keyB]) await keepKey(test.store, key);
  };

  async function call(route: AppRoute, who: Principal, target: Target, url = target.url, method: string = route.method): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...who.headers };
    // A stale version: an allowed update or delete finds the row and changes nothing (409).
    if (target.version !== undefined && method !== 'GET' && method !== 'HEAD') headers['if-match'] = '"999999"';
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
    const res = await test.app.inject({ method: method as 'GET', url, headers, payload: body });
    canaries.answer(`${method} ${url} as ${who.name}`, res);
    if (method !== 'GET' && res.statusCode < 300) await keepSignedIn(test.store, who);
    return res;
  }

  it('reads every route: a policy the table knows and a real row for each path parameter', { timeout: 120_000 }, async () => {
    expect(routes.length).toBeGreaterThan(200);
    for (const route of routes) {
      const target = await world.target(route);
      for (const who of callers(route)) expect(['allowed', 401, 403, 404], routeName(route)).toContain(expected(route, who, target));
    }
    const websiteRoutes = routes.filter((route) => typeof route.policy === 'object');
    for (const module of CMS_MODULES) expect(websiteRoutes.some((route) => (route.policy as WebsitePolicy).website === module), module).toBe(true);
    for (const flag of FEATURES) expect(websiteRoutes.some((route) => (route.policy as WebsitePolicy).website === flag), flag).toBe(true);
    for (const policy of ['public', 'apiKey', 'authenticated', 'admin', 'owner']) expect(routes.some((route) => route.policy === policy), policy).toBe(true);
    // The delivery API answers what the modules declare they deliver (contract/modules.ts), and the website's SEO.
    const delivered = new Set(routes.filter((route) => route.url.startsWith('/api/public/')).map((route) => route.url.split('/')[3]));
    expect(delivered).toEqual(new Set([...MODULES.flatMap((module) => module.delivery), 'seo', '*']));
  });

  it('declares for every route the policy its review agreed on (authorization.policies.txt)', async () => {
    // The table above follows each route's declaration; this list is what keeps the declarations
    // themselves honest: a route added, or a policy made weaker, shows here as a change to review.
    const declared = routes.map((route) => `${routeName(route)}  ${JSON.stringify(route.policy)}${sourceOf(route)}`);
    await expect(`${declared.join('\n')}\n`).toMatchFileSnapshot('./authorization.policies.txt');
  });

  it('lets past each route exactly whom its policy names, and refuses everyone else with 401, 403 or 404 and changes nothing', { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const target = await world.target(route);
      const cases = callers(route).map((who) => ({ who, outcome: expected(route, who, target) }));
      await keepKeys();
      // The refusals first, with the rows as they were: not one of them may change any.
      await changed();
      for (const { who, outcome } of cases.filter((one) => one.outcome !== 'allowed')) {
        const res = await call(route, who, target);
        figures.cases += 1;
        figures.refused[outcome as 401] += 1;
        const message = outcome === 401 && route.policy === 'apiKey' ? messages.apiKeyInvalid : REFUSALS[outcome as 401];
        const said = `${routeName(route)} as ${who.name} → ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode !== outcome || envelope(res)?.message !== message.message) problems.push(`${said} (expected ${outcome})`);
      }
      const tables = await changed();
      if (tables.length > 0) problems.push(`${routeName(route)}: refused calls changed ${tables.join(', ')}`);
      for (const { who } of cases.filter((one) => one.outcome === 'allowed')) {
        await keepKeys();
        const res = await call(route, who, await world.target(route));
        figures.cases += 1;
        figures.allowed += 1;
        if ([401, 403, 404].includes(res.statusCode) || res.statusCode >= 500) problems.push(`${routeName(route)} as ${who.name} → ${res.statusCode} ${res.body.slice(0, 160)} (expected to be let past)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('reaches no route past its policy by another spelling of its path, and answers each in the envelope', { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    for (const route of routes.filter((one) => one.method !== 'OPTIONS')) {
      const target = await world.target(route);
      const refused = callers(route).filter((who) => expected(route, who, target) !== 'allowed');
      // Nobody, and the signed-in caller closest to being let in.
      const probes = [refused.find((who) => who.kind === 'anonymous'), refused.findLast((who) => who.kind !== 'anonymous' && who.kind !== 'key')].filter((who) => who !== undefined);
      await keepKeys();
      for (const who of probes) {
        const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
        for (const method of methods) {
          for (const url of method === 'HEAD' ? [target.url, ...spellings(target.url)] : spellings(target.url)) {
            const res = await call(route, who, target, url, method);
            figures.spellings += 1;
            const said = `${method} ${url} as ${who.name} → ${res.statusCode} ${res.body.slice(0, 160)}`;
            if (![401, 403, 404].includes(res.statusCode)) problems.push(said);
            else if (method !== 'HEAD' && envelope(res)?.success !== false) problems.push(`${said} (not the envelope)`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows none of the secrets in any answer above, nor in any line the server logged', () => {
    expect(canaries.list.length).toBeGreaterThan(20);
    expect(log.lines.length).toBeGreaterThan(100);
    for (const [index, line] of log.lines.entries()) canaries.check(`log line ${index}: ${line.slice(0, 200)}`, line);
    expect(canaries.leaks).toEqual([]);
  });

  it('notices a row changed where one is: the change log is not blind', async () => {
    await changed();
    const res = await test.app.inject({ method: 'PUT', url: '/api/profile', headers: principals.ownerA.headers, payload: { firstName: 'Anna-Maria' } });
    expect(res.statusCode).toBe(200);
    expect(await changed()).toEqual(['revisions', 'users']);
    // A refused one leaves nothing to notice.
    expect((await test.app.inject({ method: 'PUT', url: '/api/profile', headers: principals.ownerA.headers, payload: { firstName: 'x'.repeat(500) } })).statusCode).toBe(400);
    expect(await changed()).toEqual([]);
  });

  it('finds a secret where one is: the search is not blind', () => {
    const probe = canaries.list.find((canary) => canary.name === 'SMTP password')!;
    const before = canaries.leaks.length;
    canaries.check('a planted answer', JSON.stringify({ data: { password: probe.value } }));
    expect(canaries.leaks.length).toBe(before + 1);
    canaries.leaks.pop();
  });
});
