import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { messages } from '../contract/messages';
import { authenticate, type SessionRow, type UserRow } from './auth/sessions';
import type { ServerContext } from './context';
import { HttpError } from './http/errors';

/**
 * Who may call a route (DESIGN.md §5). The admin, owner and website policies arrive with the
 * resources that need them; they extend this one check rather than adding another.
 */
export type Policy = 'public' | 'authenticated';

export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
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

/**
 * Every /api route declares a policy or the server does not start; the check runs before the
 * handler (and before body validation, so a stranger learns nothing from validation errors).
 */
export function registerPolicies(app: FastifyInstance, { store, clock }: ServerContext) {
  app.decorateRequest('auth', null);
  const requireSession: preHandlerHookHandler = async (request) => {
    const token = bearer(request);
    request.auth = token ? await authenticate(store.db, token, clock()) : null;
    if (!request.auth) throw new HttpError(401, messages.unauthenticated);
  };

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!(url === '/api' || url.startsWith('/api/'))) return;
    const policy = route.config?.policy;
    if (!policy) throw new Error(`Route ${String(route.method)} ${url} declares no policy`);
    if (policy === 'public') return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [requireSession as never, ...existing];
  });
}
