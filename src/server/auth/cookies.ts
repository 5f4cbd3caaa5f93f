import type { FastifyReply, FastifyRequest } from 'fastify';

// The sign-in cookies (ADR 017): the attempt a PIN was mailed for, and the devices known to an
// account. Bearer tokens stay the API's credentials; these only decide which limits a sign-in
// counts against, so they go to /api/auth and nowhere else, unreadable by scripts and never sent
// from another site's page.

const PATH = '/api/auth';

/** The value of cookie `name` in the request, or null. Our values are base64url, so nothing is decoded. */
export function readCookie(request: FastifyRequest, name: string): string | null {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** Sets a sign-in cookie for `maxAgeSeconds` (0 deletes it); Secure whenever the request came over https. */
export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=${PATH}; HttpOnly; SameSite=Strict${secure}`);
}
