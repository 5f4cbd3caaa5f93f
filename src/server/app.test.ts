// @vitest-environment node
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp } from '../../tests/support/app';
import { storeKinds } from '../../tests/support/store';
import { messages } from '../contract/messages';
import { BODY_LIMIT, loggerOptions } from './app';
import { HttpError } from './http/errors';
import { translator } from './http/i18n';

const de = translator('de');

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let current: TestApp | null = null;
afterEach(async () => {
  await current?.app.close();
  current = null;
});

/** The real app plus one route with a body schema, so the mapping of bad input is exercised end to end. */
async function appWithEchoRoute(kind: (typeof storeKinds)[number]) {
  current = await createTestApp({ kind });
  const Body = z.object({ email: z.email(), name: z.string().min(2), tags: z.array(z.string()).max(2).optional() });
  current.app.post('/api/test/echo', { config: { policy: 'public' }, schema: { body: Body } }, async (request) => ({
    success: true,
    data: request.body,
  }));
  current.app.get('/api/test/boom', { config: { policy: 'public' } }, async () => {
    throw new Error('database password is hunter2');
  });
  current.app.get('/api/test/conflict', { config: { policy: 'public' } }, async () => {
    throw new HttpError(409, messages.notFound, { version: 3 });
  });
  return current.app;
}

describe.each(storeKinds)('envelope and error mapping (%s)', (kind) => {
  it('answers a valid body with the success envelope', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'a@b.de', name: 'Anna' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { email: 'a@b.de', name: 'Anna' } });
  });

  it('maps validation failures to 400 with one error per field', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'nope', name: 'A' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe('Some fields are not valid');
    expect(body.errors.map((e: { path: string }) => e.path).toSorted()).toEqual(['body.email', 'body.name']);
    for (const error of body.errors) expect(error.message).toMatch(/\w/);
  });

  it('translates messages and field errors for Accept-Language: de', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
      payload: { email: 'a@b.de', name: 'A' },
    });
    const body = res.json();
    expect(body.message).toBe(de(messages.validationFailed));
    expect(body.message).not.toBe(messages.validationFailed.message);
    const english = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'a@b.de', name: 'A' } });
    expect(body.errors[0].message).not.toBe(english.json().errors[0].message);
    expect(body.errors[0].message).toMatch(/zu klein|zu kurz|mindestens/i);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.de",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'The request body is not valid JSON' });
  });

  it('answers an oversized body with 413 and an unsupported content type with 415', async () => {
    const app = await appWithEchoRoute(kind);
    const big = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.de', name: 'x'.repeat(BODY_LIMIT) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The request is too large');
    const xml = await app.inject({ method: 'POST', url: '/api/test/echo', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().success).toBe(false);
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({ method: 'GET', url: '/api/no/such/thing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ success: false, message: 'There is no such API endpoint' });
  });

  it('hides the cause of a 500 from the caller', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('at ');
    expect(res.json().message).toBe('Something went wrong on the server. Please try again.');
  });

  it('passes an HttpError status, translated message and data through', async () => {
    const app = await appWithEchoRoute(kind);
    const res = await app.inject({ method: 'GET', url: '/api/test/conflict', headers: { 'accept-language': 'de' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, message: de(messages.notFound), data: { version: 3 } });
    expect(de(messages.notFound)).not.toBe(messages.notFound.message);
  });
});

/** The address a request claiming to come through two proxies is taken from, with `trustProxy` in front. */
async function addressOf(trustProxy: number | false) {
  await current?.app.close();
  current = await createTestApp({ trustProxy });
  current.app.get('/api/test/ip', { config: { policy: 'public' } }, async (request) => ({ success: true, data: request.ip }));
  const res = await current.app.inject({ url: '/api/test/ip', headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' } });
  return res.json().data;
}

describe('server wiring', () => {
  it('refuses at start-up an /api route that declares no policy', async () => {
    current = await createTestApp();
    expect(() => current!.app.get('/api/unguarded', async () => ({}))).toThrow(/declares no policy/);
  });

  it('reports health while the store answers and 503 once it does not', async () => {
    current = await createTestApp();
    const up = await current.app.inject({ method: 'GET', url: '/api/health' });
    expect(up.json()).toEqual({ success: true, data: { status: 'ok', store: 'pglite' } });
    current.store.ping = async () => {
      throw new Error('connection refused');
    };
    const down = await current.app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json().success).toBe(false);
  });

  it('sends the security headers on every answer', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('logs each request with its id and never the credentials', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) });
    current = await createTestApp({ logger: { ...loggerOptions('info'), stream } });
    current.app.get('/api/test/logged', { config: { policy: 'public' } }, async (request) => {
      request.log.info({ req: request }, 'with headers');
      return { success: true, data: null };
    });
    const res = await current.app.inject({ method: 'GET', url: '/api/test/logged', headers: { authorization: 'Bearer very-secret-token' } });
    const requestId = res.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const log = lines.join('');
    expect(log).toContain(String(requestId));
    expect(log).not.toContain('very-secret-token');
  });

  it('takes the client address from X-Forwarded-For only through the proxies TRUST_PROXY counts', async () => {
    expect(await addressOf(false)).toBe('127.0.0.1');
    // One proxy in front: the address it saw the request come from, not what the client claimed before it.
    expect(await addressOf(1)).toBe('10.0.0.2');
    expect(await addressOf(2)).toBe('203.0.113.7');
  });

  it('does not trust a request id sent by the caller', async () => {
    current = await createTestApp();
    const res = await current.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'forged' } });
    expect(res.headers['x-request-id']).not.toBe('forged');
  });
});
