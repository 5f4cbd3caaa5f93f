import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route (DESIGN.md §5). Sign-in adds `authenticated`, `admin`, `owner` and the
 * website policies; the check that enforces them lives here too, so there is exactly one.
 */
export type Policy = 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy;
  }
}

/** An /api route registered without a policy stops the server at start-up, not in production. */
export function requirePolicies(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if ((url === '/api' || url.startsWith('/api/')) && !route.config?.policy) {
      throw new Error(`Route ${String(route.method)} ${url} declares no policy`);
    }
  });
}
