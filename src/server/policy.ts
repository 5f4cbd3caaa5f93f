import { and, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { messages } from '../contract/messages';
import { allows, isAdmin, type Policy, type Principal } from '../contract/permissions';
import { hashToken } from './auth/secrets';
import { authenticate, type Authenticated } from './auth/sessions';
import type { ServerContext } from './context';
import { isApiPath } from './http/client';
import { HttpError } from './http/errors';
import { isUuid } from './http/ids';
import type { Memo } from './live/memo';
import type { Db } from './store/open';
import { prepared } from './store/prepared';
import { apiKeys, partners, websites } from './store/schema';

export type { Policy } from '../contract/permissions';

/**
 * Where a website policy finds its website (ADR 009), resolved once by the guard into
 * `request.website`; the CRUD scope reads it from there, never from the raw parameter.
 * - `path`: the parameter is the website's id (`/api/cms/pages/:websiteId`).
 * - `row`: the parameter is the id of a row of `table`, whose `website_id` names it
 *   (`/api/cms/contact-forms/form/:formId`).
 * - `row-or-path`: the spec gives the path both meanings (`/api/cms/gastro-menus/:id`): a row of
 *   `table` if there is one, else a website.
 */
export type WebsiteSource = { from: 'path'; param: string } | { from: 'row' | 'row-or-path'; param: string; table: PgTable };

/** What the guard resolved: the website, and whether the parameter named it or a row of it. */
export interface ResolvedWebsite {
  id: string;
  named: 'website' | 'row';
}

/** Without a source a website route reads `:websiteId`. */
const DEFAULT_WEBSITE_SOURCE: WebsiteSource = { from: 'path', param: 'websiteId' };

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
    website?: WebsiteSource;
  }
  interface FastifyRequest {
    auth: Authenticated | null;
    website: ResolvedWebsite | null;
  }
}

/** The session token a request carries, if it carries one in the form tokens have. */
export function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer ([\w-]{20,200})$/.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** The website whose active key is in `X-API-Key`: every delivery request runs this one. */
const activeKeyQuery = prepared((db) =>
  db
    .select({ websiteId: apiKeys.websiteId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), eq(apiKeys.isActive, true)))
    .prepare('active_api_key'),
);

/** Keys remembered at most: a key's website is kept until that website changes (live/memo.ts), a key switched off included. */
const KEYS_KEPT = 10_000;
const KEY_KEPT_MS = 30_000;

/**
 * An `apiKey` route's guard: the key names the website (ADR 011 keeps only its SHA-256). It is
 * found by its hash, as a session token is: the lookup's timing tells a guesser about the hash,
 * never about the key, so no constant-time comparison is needed on top. Missing, unknown and
 * switched-off keys answer alike. A key found is remembered until its website changes; one not
 * found is looked up again every time, so guessing fills no memory.
 */
function keyGuard(db: Db, keys: Memo<string>) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || !/^[\w-]{20,200}$/.test(key)) throw new HttpError(401, messages.apiKeyInvalid);
    const keyHash = hashToken(key);
    let websiteId = keys.get(keyHash);
    if (websiteId === undefined) {
      const mark = keys.mark();
      const [found] = await activeKeyQuery(db).execute({ keyHash });
      if (!found) throw new HttpError(401, messages.apiKeyInvalid);
      websiteId = found.websiteId;
      keys.keep(keyHash, websiteId, websiteId, mark);
    }
    request.website = { id: websiteId, named: 'website' };
  };
}

/** The caller of a route whose policy required a session. */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new HttpError(401, messages.unauthenticated);
  return request.auth;
}

/** What the permission rules of the contract need to know about a caller. */
export function principal({ user, roleInfo }: Authenticated): Principal {
  // Admin is the user type: a team role's name is the website owner's to choose, so "admin" there grants nothing.
  return { type: user.type, roleInfo };
}

/**
 * Whether the website exists and the caller has something to do with it: admin, its owner, the
 * owner of its partner record, or its team.
 */
async function reaches(db: Db, auth: Authenticated, websiteId: string): Promise<boolean> {
  const [row] = await db.select({ id: websites.id }).from(websites).where(and(eq(websites.id, websiteId), reachable(db, auth)));
  return row !== undefined;
}

/** The websites (a condition on `websites`) the caller has something to do with; undefined for an admin: all. */
export function reachable(db: Db, auth: Authenticated): SQL | undefined {
  const { user } = auth;
  if (isAdmin(principal(auth))) return undefined;
  if (user.type === 'teammember') return user.websiteId ? eq(websites.id, user.websiteId) : sql`false`;
  const myPartners = db.select({ id: partners.id }).from(partners).where(eq(partners.ownerId, user.id));
  return or(eq(websites.ownerId, user.id), inArray(websites.partnerId, myPartners));
}

/** The website of a row, by its id: one lookup on the primary key. */
async function websiteOfRow(db: Db, table: PgTable, id: string): Promise<string | null> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const [row] = await db
    .select({ websiteId: columns.websiteId! })
    .from(table)
    .where(eq(columns.id!, id));
  return (row?.websiteId as string | undefined) ?? null;
}

/** The website a website route names, by its source; null when the parameter names nothing. */
async function resolveWebsite(db: Db, source: WebsiteSource, raw: string | undefined): Promise<ResolvedWebsite | null> {
  if (!isUuid(raw)) return null;
  const id = raw.toLowerCase();
  if (source.from === 'path') return { id, named: 'website' };
  const owner = await websiteOfRow(db, source.table, id);
  if (owner) return { id: owner, named: 'row' };
  return source.from === 'row-or-path' ? { id, named: 'website' } : null;
}

/**
 * docs/design.md §5 in one place: returns when `auth` may call a route with `policy`, throws 401, 403
 * or 404 otherwise. A website policy first resolves the route's website; one the caller has nothing
 * to do with answers 404 like an unknown one, so ids do not leak; only its own team hears 403 when
 * their role's level or flag is short.
 */
async function authorize(request: FastifyRequest, db: Db, policy: Exclude<Policy, 'public' | 'apiKey'>, source: WebsiteSource): Promise<void> {
  const auth = request.auth;
  if (!auth) throw new HttpError(401, messages.unauthenticated);
  // Owners' rows are narrowed to their own in the queries (crud/rows.ts visibleRows for the 'owner' scope); a website
  // policy first needs the caller to reach that website at all.
  if (typeof policy === 'object') {
    const website = await resolveWebsite(db, source, (request.params as Record<string, string | undefined>)[source.param]);
    if (!website || !(await reaches(db, auth, website.id))) throw new HttpError(404, messages.notFound);
    request.website = website;
  }
  if (!allows(policy, principal(auth))) throw new HttpError(403, messages.forbidden);
}

/** Whether a signed-in caller's request is a retry whose first answer is kept (http/idempotency.ts): it is answered again as it was. */
export type AnsweredBefore = (request: FastifyRequest) => Promise<boolean>;

/**
 * Every /api route declares a policy or the server does not start. The check runs first, before
 * the body is even parsed, so a stranger learns nothing from validation errors. A retry of a
 * request the caller already made (its Idempotency-Key answered) is not asked again: the policy may
 * no longer find the row the first request deleted, and the caller hears only what they heard then.
 */
export function registerPolicies(app: FastifyInstance, { store, clock, memos, readSession }: Pick<ServerContext, 'store' | 'clock' | 'memos' | 'readSession'>, answeredBefore: AnsweredBefore) {
  const authorizeKey = keyGuard(store.db, memos.memo<string>({ max: KEYS_KEPT, ttlMs: KEY_KEPT_MS }));
  app.decorateRequest('auth', null);
  app.decorateRequest('website', null);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!isApiPath(url)) return;
    const name = `${String(route.method)} ${url}`;
    const policy = route.config?.policy;
    if (!policy) throw new Error(`Route ${name} declares no policy`);
    // A route that names a website but would let anyone past it is the hole ADR 009 closes.
    if (route.config?.website && typeof policy !== 'object') throw new Error(`Route ${name} names a website but has no website policy`);
    if (policy === 'public') return;
    const source = route.config?.website ?? DEFAULT_WEBSITE_SOURCE;
    if (typeof policy === 'object' && !url.split('/').includes(`:${source.param}`)) {
      throw new Error(`Route ${name} has a website policy but no :${source.param} in its path`);
    }
    const guard: onRequestHookHandler = async (request) => {
      if (policy === 'apiKey') return authorizeKey(request);
      const token = bearer(request);
      request.auth = token ? await authenticate(store.db, token, clock(), readSession) : null;
      if (request.auth && (await answeredBefore(request))) return;
      await authorize(request, store.db, policy, source);
    };
    route.onRequest = [guard, ...(route.onRequest ? [route.onRequest].flat() : [])];
  });
}
