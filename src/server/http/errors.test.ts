// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { messages } from '../../contract/messages';
import { translator } from './i18n';

/*
 * Issue 17, defect 4: what Fastify's router refuses before any route runs — a bad
 * percent-encoding, a path parameter too long for it — is answered in the envelope, with a
 * translated message and a 4xx, never echoing the URL; and every slug a page may have still
 * reaches its route.
 */

const de = translator('de');

describe('URLs the router cannot take', () => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;

  beforeAll(async () => {
    test = await createTestApp();
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
  });
  afterAll(() => test.app.close());

  const refused = async (method: 'GET' | 'PUT' | 'DELETE', url: string, status: number, message: { id: string; message?: string }) => {
    for (const language of ['en', 'de'] as const) {
      const res = await test.app.inject({ method, url, headers: { ...cast.headers.ownerA, 'accept-language': language } });
      expect(`${method} ${res.statusCode}`).toBe(`${method} ${status}`);
      expect(res.json()).toEqual({ success: false, message: language === 'de' ? de(message) : message.message });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['permissions-policy']).toContain('camera=()');
      // Nothing of what was sent comes back.
      expect(res.body).not.toMatch(/%C0|xxxx|FST_/);
    }
  };

  it('answers a bad percent-encoding with 400 in the envelope, signed in or not', async () => {
    await refused('GET', '/api/public/pages/%C0%AE', 400, messages.badRequest);
    await refused('PUT', `/api/cms/pages/${cast.site.A}/%C0%AE`, 400, messages.badRequest);
    const anonymous = await test.app.inject({ url: '/api/public/pages/%C0%AE' });
    expect(anonymous.json()).toEqual({ success: false, message: messages.badRequest.message });
  });

  it('answers a path parameter longer than any id or slug like an unknown id, on every method', async () => {
    const long = 'x'.repeat(5000);
    await refused('GET', `/api/cms/pages/${cast.site.A}/${long}`, 404, messages.notFound);
    await refused('PUT', `/api/cms/pages/${cast.site.A}/${long}`, 404, messages.notFound);
    await refused('DELETE', `/api/websites/${long}`, 404, messages.notFound);
  });

  it('lets the delivery API find a page by the longest slug a page may have', async () => {
    const slug = `${'a'.repeat(59)}-${'b'.repeat(60)}`;
    expect(slug).toHaveLength(120);
    const page = await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'Long address', slug, status: 'published' });
    expect(page.statusCode, page.body).toBe(201);
    const key = data(await send('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`, {})).key as string;
    const res = await test.app.inject({ url: `/api/public/pages/${slug}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    expect(data(res)).toMatchObject({ slug, title: 'Long address' });
  });
});
