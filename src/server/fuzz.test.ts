// @vitest-environment node
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { logBuffer, seedCanaries, type Canaries } from '../../tests/support/canaries';
import { seedCast } from '../../tests/support/cast';
import { watchChanges } from '../../tests/support/changes';
import { keepKey, keepSignedIn, seedPrincipals, type Principal, type Principals } from '../../tests/support/principals';
import { captureRoutes, routeName, type AppRoute } from '../../tests/support/routes';
import { storeKinds } from '../../tests/support/store';
import { html, multipartFile, pixelBomb, png, svg } from '../../tests/support/uploads';
import { World, type Target } from '../../tests/support/world';
import { arbitraryOf, HOSTILE, longestOf, nested, referencesOf, type ArbitraryContext } from '../../tests/support/zod-arbitraries';
import { pathParams } from '../contract/resource';

/*
 * Fuzzing every route from its own Zod schemas (the params, querystring and body schemas
 * fastify-type-provider-zod validates with): fast-check makes requests shaped like what each
 * route takes, most of them valid, some with one field made hostile, one left out or one added
 * (tests/support/zod-arbitraries.ts), and odd headers; then every route with a body gets the
 * transport's hostile cases (broken, empty, deep, oversized, mistyped, invalid UTF-8 bodies,
 * prototype keys, truncated multipart), every route the odd query strings and path parameters.
 * The admin and A's owner send them, on real rows of A (the delivery API: A's key); the seed is
 * fixed, so a run is repeatable and a route keeps its cases when others are added.
 *
 * Every answer: no 5xx; a 4xx is the envelope with a message, and a refused request changed no
 * row (tests/support/changes.ts). No answer and no log line shows a secret.
 *
 * The two stores' suites run side by side in this worker (each suite's own tests in order): PGlite
 * computes in this thread while the answers of PostgreSQL, a process of its own, are awaited. The
 * file took 51 s with one store after the other, 47 s side by side, alone on the machine.
 */

vi.mock('fastify', async (original) => (await import('../../tests/support/routes')).capturingFastify(await original()));
vi.mock('./crud', async (original) => (await import('../../tests/support/routes')).capturingCrud(await original()));

const SEED = 20_251_117;
/** Requests made from a route's schemas, per route and caller. */
const RUNS = 6;

/** A text's hash as a seed: each route has its own cases, kept when other routes come and go. */
const seedOf = (text: string) => [...text].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, SEED);

/** Path parameters no route may choke on: malformed, encoded wrongly, far too long, naming nobody. */
const HOSTILE_IDS = [
  'not-an-id',
  '0195F0B4-0000-7000-8000-000000000000',
  '00000000-0000-0000-0000-000000000000',
  '%00',
  '%E0%A4%A',
  '%',
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%92%A5',
  '-1',
  'a'.repeat(2000),
];

interface Request {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const VERSIONED = new Set(['PUT', 'PATCH', 'DELETE']);

/** A value with one field made hostile, one left out, or one added; or a hostile value in its place. */
function mutated(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const hostile = fc.constantFrom(...HOSTILE);
  return fc.oneof(
    { arbitrary, weight: 4 },
    {
      arbitrary: fc.tuple(arbitrary, fc.nat(), hostile, fc.constantFrom('websiteId', 'isAdmin', '__proto__', 'id', 'extra')).map(([value, n, bad, added]) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad;
        const keys = Object.keys(value);
        const key = keys.length > 0 && n % 3 !== 0 ? keys[n % keys.length]! : added;
        // defineProperty: `__proto__` as an own key, as JSON.parse makes it.
        return Object.defineProperty({ ...value }, key, { value: bad, enumerable: true, configurable: true, writable: true });
      }),
      weight: 3,
    },
    {
      arbitrary: fc.tuple(arbitrary, fc.nat()).map(([value, n]) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
        const keys = Object.keys(value);
        return keys.length === 0 ? value : Object.fromEntries(Object.entries(value).filter(([key]) => key !== keys[n % keys.length]));
      }),
      weight: 2,
    },
    { arbitrary: hostile, weight: 1 },
  );
}

/** A query string from a value: arrays as repeated keys, objects as JSON, everything else as text. */
function queryOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `?q=${encodeURIComponent(String(value))}`;
  const search = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    for (const one of Array.isArray(item) ? item : [item]) search.append(key, one !== null && typeof one === 'object' ? JSON.stringify(one) : String(one));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The route's path with one parameter replaced (already as it goes on the wire). */
function withParam(route: AppRoute, target: Target, index: number, value: string): string {
  const names = pathParams(route.url);
  const parts = target.url.split('/');
  const templateParts = route.url.split('/');
  const at = templateParts.findIndex((part) => part === `:${names[index]}`);
  parts[at] = value;
  return parts.join('/');
}

const truncate = (body: { payload: Buffer; headers: Record<string, string> }) => ({ ...body, payload: body.payload.subarray(0, body.payload.length - 30) });

/** Requests made from the route's own schemas by fast-check, with odd headers now and then. */
function generated(route: AppRoute, target: Target, ids: ArbitraryContext): Request[] {
  const { params, querystring, body } = route.schema as Record<string, Parameters<typeof arbitraryOf>[0] | undefined>;
  const names = pathParams(route.url);
  const arbitrary = fc.record({
    param: names.length > 0 && params ? fc.option(fc.tuple(fc.nat(names.length - 1), fc.constantFrom(...HOSTILE_IDS)), { freq: 4 }) : fc.constant(null),
    query: querystring ? fc.option(mutated(arbitraryOf(querystring, ids)), { freq: 5 }) : fc.constant(null),
    body: body ? mutated(arbitraryOf(body, ids)) : fc.constant(undefined),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', 'x'.repeat(300))), { freq: 3 }),
    ifMatch: fc.option(fc.constantFrom('"999999"', '*', 'W/"1"', '"-1"', 'garbage', `"${'9'.repeat(30)}"`), { freq: 3 }),
    language: fc.option(fc.constantFrom('de', 'en', 'xx', 'de-DE,de;q=0.9', '*', ';;;', 'x'.repeat(500)), { freq: 2 }),
  });
  return fc.sample(arbitrary, { seed: seedOf(routeName(route)), numRuns: RUNS }).map((made, index) => {
    const headers: Record<string, string> = {};
    if (made.idempotencyKey !== null) headers['idempotency-key'] = made.idempotencyKey;
    if (made.ifMatch !== null) headers['if-match'] = made.ifMatch;
    if (made.language !== null) headers['accept-language'] = made.language;
    const url = (made.param ? withParam(route, target, made.param[0], made.param[1]) : target.url) + (made.query === null ? '' : queryOf(made.query));
    const payload = made.body === undefined ? undefined : JSON.stringify(made.body);
    return { label: `generated #${index}`, method: route.method, url, headers: payload === undefined ? headers : { ...JSON_TYPE, ...headers }, payload };
  });
}

describe.concurrent.each(storeKinds)('fuzzing every route (%s)', (kind) => {
  const log = logBuffer();
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let routes: AppRoute[] = [];
  let principals: Principals;
  let world: World;
  let canaries: Canaries;
  let changed: () => Promise<string[]>;
  let image: Buffer;
  let bomb: Buffer;
  const statuses = new Map<number, number>();
  let cases = 0;

  beforeAll(async () => {
    const captured = await captureRoutes(() => createTestApp({ kind, logger: log.logger }));
    test = captured.built;
    routes = captured.routes;
    const cast = await seedCast(test.store);
    principals = await seedPrincipals(test.app, test.store, cast, {});
    world = await new World(test.app, test.store, cast, captured.resources, () => principals.admin.headers).prepare();
    changed = await watchChanges(test.store);
    const { anonymous, admin, ownerA, ownerB, partner, memberB, keyA, keyB } = principals;
    canaries = await seedCanaries(test.app, test.store, cast, [anonymous, admin, ownerA, ownerB, partner, memberB], [keyA, keyB]);
    image = await png(8, 8);
    bomb = await pixelBomb();
  });
  afterAll(async () => {
    const byStatus = [...statuses.entries()].toSorted(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.info(`[fuzz ${kind}] ${routes.length} routes, ${cases} requests; answers ${byStatus.join(', ')}`);
    await test.app.close();
  });

  /** The transport's hostile cases: bodies, queries, path parameters, uploads. */
  async function fixed(route: AppRoute, target: Target): Promise<Request[]> {
    const made: Request[] = [];
    const add = (label: string, url: string, payload?: string | Buffer, headers: Record<string, string> = {}) => made.push({ label, method: route.method, url, headers, payload });
    const { url } = target;
    if (['POST', 'PUT', 'PATCH'].includes(route.method)) {
      const deep = `{"a":${nested(100_000)}}`;
      add('invalid JSON', url, '{"a":', JSON_TYPE);
      add('an empty JSON body', url, '', JSON_TYPE);
      add('no body at all', url);
      for (const text of ['[]', '1', '"x"', 'null']) add(`JSON ${text}`, url, text, JSON_TYPE);
      add('prototype keys', url, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}', JSON_TYPE);
      add('invalid UTF-8', url, Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), JSON_TYPE);
      add('100,000 levels deep', url, deep, JSON_TYPE);
      add('100,000 levels deep with an Idempotency-Key', url, deep, { ...JSON_TYPE, 'idempotency-key': crypto.randomUUID() });
      add('text/plain', url, '{}', { 'content-type': 'text/plain' });
      add('XML', url, '<a/>', { 'content-type': 'application/xml' });
      add('over the body limit', url, `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`, JSON_TYPE);
      const body = route.schema.body as Parameters<typeof longestOf>[0] | undefined;
      if (body) {
        const entry = route.registered?.resource;
        const example = entry && body === entry.create ? await world.example(entry, target.websiteId ?? '') : {};
        add('every text at its longest, in characters that grow when escaped', url, JSON.stringify(longestOf(body, example)), JSON_TYPE);
        // A record made its own parent, category, picture…: a rule that is checked only after the write must undo it.
        const self = [...target.rows.values()].at(-1)?.id;
        if (route.method === 'PUT' && self) for (const { key, list } of referencesOf(body)) add(`${key} names the record itself`, url, JSON.stringify({ [key]: list ? [self] : self }), JSON_TYPE);
      }
      const upload = multipartFile({ data: image, filename: 'a.png', contentType: 'image/png' });
      add('truncated multipart', url, truncate(upload).payload, truncate(upload).headers);
      if (!route.schema.body && route.method === 'POST') {
        add('an image', url, upload.payload, upload.headers);
        add('an image with an Idempotency-Key', url, upload.payload, { ...upload.headers, 'idempotency-key': crypto.randomUUID() });
        add('truncated multipart with an Idempotency-Key', url, truncate(upload).payload, { ...truncate(upload).headers, 'idempotency-key': crypto.randomUUID() });
        const files = multipartFile({ data: image, filename: '\u202Egnp.exe', contentType: 'image/png' }, 'files');
        add('an image named with a direction override, as `files`', url, files.payload, files.headers);
        add('multipart with another boundary', url, upload.payload, { 'content-type': 'multipart/form-data; boundary=other' });
        for (const [name, data] of [['SVG', svg], ['HTML', html], ['a decompression bomb', bomb], ['zero bytes', Buffer.alloc(0)]] as const) {
          const file = multipartFile({ data, filename: `x-${name}.png`, contentType: 'image/png' });
          add(`${name} as an image`, url, file.payload, file.headers);
        }
      }
    }
    if (route.method === 'GET') {
      add('a 100,000-character query', `${url}?search=${'x'.repeat(100_000)}`);
      add('bad percent-encoding in the query', `${url}?search=%E0%A4%A&page=%`);
      add('repeated keys', `${url}?page=1&page=2&limit=1&limit=x`);
      add('prototype keys in the query', `${url}?__proto__[isAdmin]=1&constructor[prototype][isAdmin]=1`);
      add('NUL in the query', `${url}?search=a%00b&language=%00`);
      // Every key a list may be sorted by, both ways: each is a column of its own type (text, enum, timestamp, number).
      const sorts = route.registered && route.url === route.registered.resource.paths.list ? route.registered.resource.sort : [];
      for (const key of sorts) for (const order of ['asc', 'desc']) add(`sorted by ${key}, ${order}`, `${url}?sortBy=${key}&sortOrder=${order}`);
    }
    const names = pathParams(route.url);
    if (names.length > 0) {
      for (const value of ['%E0%A4%A', '%00', 'a'.repeat(100_000), '0195F0B4-0000-7000-8000-000000000000']) add(`:${names.at(-1)} = ${value.slice(0, 20)}`, withParam(route, target, names.length - 1, value));
    }
    return made;
  }

  async function send(who: Principal, request: Request, target: Target): Promise<string[]> {
    if (who.kind === 'key') await keepKey(test.store, who as Principal & { key: string });
    // The version the row has, unless the case sends its own: most updates and deletes then go through.
    const headers = { ...who.headers, ...(target.version !== undefined && VERSIONED.has(request.method) ? { 'if-match': `"${target.version}"` } : {}), ...request.headers };
    await changed();
    const res = await test.app.inject({ method: request.method as 'GET', url: request.url, headers, payload: request.payload });
    cases += 1;
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    canaries.answer(`${request.method} ${request.url.slice(0, 200)}`, res);
    const said = `${request.label} as ${who.name} → ${res.statusCode} ${res.body.slice(0, 200)}`;
    const problems: string[] = [];
    if (res.statusCode >= 500) problems.push(said);
    else if (res.statusCode >= 400) {
      let answer: { success?: unknown; message?: unknown } | undefined;
      try {
        answer = res.json();
      } catch {
        answer = undefined;
      }
      if (answer?.success !== false || typeof answer.message !== 'string' || answer.message === '') problems.push(`${said} (not the envelope)`);
      const tables = await changed();
      if (tables.length > 0) problems.push(`${said} (changed ${tables.join(', ')})`);
    }
    if (request.method !== 'GET' && res.statusCode < 300) await keepSignedIn(test.store, who);
    return problems;
  }

  it.sequential('answers every request without a 5xx, every refusal in the envelope, and no refused request changes a row', { timeout: 300_000 }, async () => {
    const problems = new Map<string, string[]>();
    for (const one of routes) {
      const callers = one.policy === 'apiKey' ? [principals.keyA, principals.ownerA] : [principals.admin, principals.ownerA];
      const fresh = one.method === 'DELETE';
      const sample = await world.target(one);
      const ids: ArbitraryContext = { ids: [...sample.rows.values()].map((row) => row.id).filter((id) => /^[0-9a-f-]{36}$/.test(id)) };
      const found: string[] = [];
      // A delete takes a record of its own; an update names the version its record has by now.
      const retarget = async (who: Principal, request: Request) => {
        const target = VERSIONED.has(one.method) ? await world.target(one, { fresh }) : sample;
        return send(who, { ...request, url: request.url.replace(sample.url, target.url) }, target);
      };
      // The transport's cases test the server, not the caller: sent once, by the first.
      for (const request of await fixed(one, sample)) found.push(...(await retarget(callers[0]!, request)));
      for (const who of callers) for (const request of generated(one, sample, ids)) found.push(...(await retarget(who, request)));
      if (found.length > 0) problems.set(routeName(one), found);
    }
    const report = [...problems.entries()].flatMap(([name, found]) => [`${name} (${found.length})`, ...found.slice(0, 4).map((line) => `    ${line}`)]);
    expect(report).toEqual([]);
  });

  it.sequential('shows none of the secrets in any answer above, nor in any line the server logged', () => {
    expect(log.lines.length).toBeGreaterThan(100);
    for (const [index, line] of log.lines.entries()) canaries.check(`log line ${index}: ${line.slice(0, 200)}`, line);
    expect(canaries.leaks.slice(0, 20)).toEqual([]);
  });
});
