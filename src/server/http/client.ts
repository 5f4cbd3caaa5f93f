import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Vite fingerprints everything under /assets/; all else must be revalidated so updates arrive. */
function cacheControl(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : NO_CACHE;
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A navigation the SPA's router should answer: a GET for HTML outside the API. */
export function wantsApp(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(request.url) &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * Serves the built PWA: each file as the `.br` or `.gz` sibling the build wrote when the browser
 * accepts that encoding (with `Vary: Accept-Encoding`), the plain file otherwise.
 */
export async function registerClient(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    cacheControl: false,
    // A route for each file the build wrote, found at start, and no catch-all: any other path is
    // the not-found handler's (the app for a navigation, the API's 404 under /api), and no URL
    // someone makes up is ever looked up on disk.
    wildcard: false,
    // The compressed copies are sent in place of their file (preCompressed), never at an address of
    // their own: half the routes fewer, and routes are most of what a start costs.
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (reply: FastifyReply, path: string) => void reply.header('cache-control', cacheControl(path)),
  });
}

export function sendApp(reply: FastifyReply) {
  return reply.header('cache-control', NO_CACHE).sendFile('index.html');
}
