import { and, eq, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { messages } from '../contract/messages';
import { allows, isAdmin, type Policy, type Principal } from '../contract/permissions';
import { authenticate, type Authenticated } from './auth/sessions';
import type { ServerContext } from './context';
import { isApiPath } from './http/client';
import { HttpError } from './http/errors';
import { isUuid } from './http/ids';
import type { Db } from './store/open';
import { websites } from './store/schema';

export type { Policy } from '../contract/permissions';

/** The path parameter a website policy reads its website from, unless the route names another. */
const DEFAULT_WEBSITE_PARAM = 'websiteId';

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
    /** The path parameter naming the website of a website policy (`id` for /api/websites/:id/…). */
    websiteParam?: string;
  }
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer ([\w-]{20,200})$/.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
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

/** Whether the website exists and the caller has something to do with it: admin, its owner or partner, or its team. */
async function reaches(db: Db, auth: Authenticated, websiteId: string | undefined): Promise<boolean> {
  if (!isUuid(websiteId)) return false;
  const { user } = auth;
  const id = websiteId.toLowerCase();
  if (user.type === 'teammember') return user.websiteId === id;
  const related = isAdmin(principal(auth)) ? undefined : or(eq(websites.ownerId, user.id), eq(websites.partnerId, user.id));
  const [row] = await db.select({ id: websites.id }).from(websites).where(and(eq(websites.id, id), related));
  return row !== undefined;
}

/**
 * docs/design.md §5 in one place: returns when `auth` may call a route with `policy`, throws 401, 403
 * or 404 otherwise. `websiteId` is the raw path parameter a website policy names. A website the
 * caller has nothing to do with answers 404 like an unknown one, so ids do not leak; only its
 * own team hears 403 when their role's level or flag is short.
 */
async function authorize(db: Db, auth: Authenticated | null, policy: Exclude<Policy, 'public'>, websiteId?: string): Promise<void> {
  if (!auth) throw new HttpError(401, messages.unauthenticated);
  // Owners' rows are narrowed to their own in the queries (crud.ts's 'owner' scope); a website
  // policy first needs the caller to reach that website at all.
  if (typeof policy === 'object' && !(await reaches(db, auth, websiteId))) throw new HttpError(404, messages.notFound);
  if (!allows(policy, principal(auth))) throw new HttpError(403, messages.forbidden);
}

/**
 * Every /api route declares a policy or the server does not start. The check runs first, before
 * the body is even parsed, so a stranger learns nothing from validation errors.
 */
export function registerPolicies(app: FastifyInstance, { store, clock }: Pick<ServerContext, 'store' | 'clock'>) {
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!isApiPath(url)) return;
    const name = `${String(route.method)} ${url}`;
    const policy = route.config?.policy;
    if (!policy) throw new Error(`Route ${name} declares no policy`);
    if (policy === 'public') return;
    const param = route.config?.websiteParam ?? DEFAULT_WEBSITE_PARAM;
    if (typeof policy === 'object' && !url.split('/').includes(`:${param}`)) {
      throw new Error(`Route ${name} has a website policy but no :${param} in its path`);
    }
    const guard: onRequestHookHandler = async (request) => {
      const token = bearer(request);
      request.auth = token ? await authenticate(store.db, token, clock()) : null;
      await authorize(store.db, request.auth, policy, (request.params as Record<string, string | undefined>)[param]);
    };
    route.onRequest = [guard, ...(route.onRequest ? [route.onRequest].flat() : [])];
  });
}
