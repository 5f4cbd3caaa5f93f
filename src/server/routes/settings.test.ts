// @vitest-environment node
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { createTestApp } from '../../../tests/support/app';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { IMAGE_LIMITS } from '../files/images';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/** A multipart body with one file under `file`, as a browser's FormData sends it. */
async function multipart(data: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

const png = () =>
  sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();

describe.each(storeKinds)('the installation’s settings (%s)', (kind) => {
  async function setup() {
    const { app, store } = await createTestApp({ kind });
    opened.push(app);
    const admin = await seedUser(store, { type: 'admin', email: 'admin@example.test', username: 'admin', password: 'admin-password' });
    const owner = await seedUser(store, { type: 'user', email: 'owner@example.test', username: 'owner', password: 'owner-password' });
    return { app, admin: bearer(await tokenFor(store, admin.id)), owner: bearer(await tokenFor(store, owner.id)) };
  }

  it('is read and changed by an admin at /api/settings, with If-Match, and the public brand follows', async () => {
    const { app, admin } = await setup();
    const read = await app.inject({ method: 'GET', url: '/api/settings', headers: admin });
    expect(read.statusCode).toBe(200);
    const { version } = read.json().data;
    expect(read.headers.etag).toBe(`"${version}"`);

    const change = { cmsName: 'Agentur Nord', supportUrl: 'mailto:support@agentur.example', defaultLanguage: 'de' };
    const missing = await app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: change });
    expect(missing.statusCode).toBe(428);

    const saved = await app.inject({ method: 'PUT', url: '/api/settings', headers: { ...admin, 'if-match': `"${version}"` }, payload: change });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ ...change, version: version + 1 });

    const stale = await app.inject({ method: 'PUT', url: '/api/settings', headers: { ...admin, 'if-match': `"${version}"` }, payload: { cmsName: 'Late' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().data).toMatchObject({ cmsName: 'Agentur Nord', version: version + 1 });

    const brand = await app.inject({ method: 'GET', url: '/api/white-label/config' });
    expect(brand.json().data).toMatchObject({ cmsName: 'Agentur Nord', supportUrl: 'mailto:support@agentur.example', defaultLanguage: 'de' });
  });

  it('stores an uploaded PNG logo as WebP, serves it inert, and names it in the brand', async () => {
    const { app, admin } = await setup();
    const before = (await app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json().data;

    const body = await multipart(await png(), 'logo.png', 'image/png');
    const upload = await app.inject({ method: 'POST', url: '/api/settings/logo', payload: body.payload, headers: { ...admin, ...body.headers } });

    expect(upload.statusCode).toBe(200);
    const entity = upload.json().data;
    expect(entity).toMatchObject({ _id: before._id, version: before.version + 1 });
    expect(entity.cmsLogoUrl).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}\.webp$/);

    const served = await app.inject({ method: 'GET', url: entity.cmsLogoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(served.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');

    const brand = await app.inject({ method: 'GET', url: '/api/white-label/config' });
    expect(brand.json().data.cmsLogoUrl).toBe(entity.cmsLogoUrl);
  });

  it.each([
    ['an SVG', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 'image/svg+xml'],
    ['an HTML page named .png', new TextEncoder().encode('<!doctype html><html><script>alert(1)</script></html>'), 'logo.png', 'image/png'],
  ])('refuses %s with 415 and keeps the logo it had', async (_case, data, name, type) => {
    const { app, admin } = await setup();
    const before = (await app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json().data;

    const body = await multipart(data, name, type);
    const refused = await app.inject({ method: 'POST', url: '/api/settings/logo', payload: body.payload, headers: { ...admin, ...body.headers } });

    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({ success: false, message: 'Only JPEG, PNG, WebP, GIF and AVIF images can be uploaded.' });
    expect((await app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json().data).toMatchObject({ version: before.version, cmsLogoUrl: null });
  });

  it('refuses a file over the size limit with 413', async () => {
    const { app, admin } = await setup();
    const body = await multipart(new Uint8Array(IMAGE_LIMITS.maxBytes + 1), 'huge.png', 'image/png');

    const refused = await app.inject({ method: 'POST', url: '/api/settings/logo', payload: body.payload, headers: { ...admin, ...body.headers } });

    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ success: false, message: 'The file is too large.' });
  });

  it('is for admins only: anyone else gets 403 reading, changing or uploading', async () => {
    const { app, owner } = await setup();
    const body = await multipart(await png(), 'logo.png', 'image/png');

    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/api/settings', headers: owner }),
      app.inject({ method: 'PUT', url: '/api/settings', headers: { ...owner, 'if-match': '"1"' }, payload: { cmsName: 'Mine' } }),
      app.inject({ method: 'POST', url: '/api/settings/logo', payload: body.payload, headers: { ...owner, ...body.headers } }),
    ]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([403, 403, 403]);
    expect((await app.inject({ method: 'GET', url: '/api/white-label/config' })).json().data.cmsName).not.toBe('Mine');
  });
});
