// @vitest-environment node
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../tests/api-client/api';
import { createTestApp } from '../../tests/support/app';
import { seedCast, type Cast } from '../../tests/support/cast';
import { messages } from '../contract/messages';
import { DELIVERY_REFERENCE_PATH } from '../contract/server-pages';

/*
 * The API contract as another program meets it: a client made only from the OpenAPI document's
 * types (openapi-typescript, before every typecheck: scripts/api-contract.ts) and openapi-fetch.
 * These calls compile against those types — a path, parameter or body the document got wrong fails
 * the typecheck — and answer as the types say, errors in the envelope included.
 */
describe('a client generated from /api/openapi.json', () => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let baseUrl: string;
  const clientOf = (headers: Record<string, string>) => createClient<paths>({ baseUrl, headers });

  beforeAll(async () => {
    test = await createTestApp();
    cast = await seedCast(test.store);
    baseUrl = await test.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => test.app.close());

  it('creates, lists and changes a page with typed calls; a stale version is the typed 409', async () => {
    const api = clientOf(cast.headers.ownerA);
    const websiteId = cast.site.A;
    const made = await api.POST('/api/cms/pages/{websiteId}', { params: { path: { websiteId } }, body: { title: 'Opening hours', status: 'published' } });
    expect(made.response.status).toBe(201);
    const page = made.data!.data;
    expect(page).toMatchObject({ title: 'Opening hours', slug: 'opening-hours', version: 1 });

    const listed = await api.GET('/api/cms/pages/{websiteId}', { params: { path: { websiteId }, query: { search: 'opening', limit: 10 } } });
    expect(listed.data!.data.map((row) => row._id)).toEqual([page._id]);

    const path = { websiteId, pageId: page._id };
    const changed = await api.PUT('/api/cms/pages/{websiteId}/{pageId}', { params: { path, header: { 'If-Match': '"1"' } }, body: { title: 'Hours' } });
    expect(changed.data!.data).toMatchObject({ title: 'Hours', version: 2 });
    const stale = await api.PUT('/api/cms/pages/{websiteId}/{pageId}', { params: { path, header: { 'If-Match': '"1"' } }, body: { title: 'Late' } });
    expect(stale.response.status).toBe(409);
    expect(stale.error).toMatchObject({ success: false, message: expect.any(String) });
  });

  it('reads the delivery API with the website’s key, and hears its 401 and 404 as typed errors', async () => {
    const owner = clientOf(cast.headers.ownerA);
    const key = (await owner.POST('/api/websites/{id}/api-key', { params: { path: { id: cast.site.A } }, body: {} })).data!.data.key!;
    const site = clientOf({ 'x-api-key': key });
    const missing = await site.GET('/api/public/pages/{slug}', { params: { path: { slug: 'nowhere' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.message).toBe(messages.notFound.message);
    const refused = await clientOf({ 'x-api-key': 'skp_not-a-key-of-anyone-at-all' }).GET('/api/public/pages', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error?.message).toBe(messages.apiKeyInvalid.message);
  });
});

describe('the delivery API’s reference page', () => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.app.close());

  it('shows the delivery API alone, every schema it names included, and nothing of the admin', async () => {
    const res = await test.app.inject({ url: `${DELIVERY_REFERENCE_PATH}/json` });
    expect(res.statusCode).toBe(200);
    const document = res.json<{ paths: Record<string, object>; components: { schemas: Record<string, object>; securitySchemes: object } }>();
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/api/public/gastro-menus/{menuId}');
    expect(paths).toContain('/api/public/forms/{formId}/submissions');
    expect(paths.filter((path) => !path.startsWith('/api/public/'))).toEqual([]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiKey']);
    const refs = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(([, name]) => name!);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((name) => !(name in document.components.schemas))).toEqual([]);
  });

  it('is served from the package’s own files under the app’s CSP: no script from elsewhere', async () => {
    const page = await test.app.inject({ url: DELIVERY_REFERENCE_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map(([, src]) => src!);
    expect(scripts).toContain(`${DELIVERY_REFERENCE_PATH}/static/swagger-ui-bundle.js`);
    for (const src of scripts) expect((await test.app.inject({ url: src })).statusCode).toBe(200);
  });
});
