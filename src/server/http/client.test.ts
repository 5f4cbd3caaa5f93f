// @vitest-environment node
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { messages } from '../../contract/messages';

const html = { accept: 'text/html,application/xhtml+xml' };
const script = 'export const answer = 42;\n'.repeat(100);

describe('serving the built PWA', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof createTestApp>>['app'];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sk-client-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>app shell</title>');
    await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"x"}');
    await writeFile(join(dir, 'assets', 'index-Ab12Cd.js'), 'console.log(1)');
    // What the build writes beside each text file (scripts/precompress.ts).
    await writeFile(join(dir, 'assets', 'app-Ef34Gh.js'), script);
    await writeFile(join(dir, 'assets', 'app-Ef34Gh.js.br'), brotliCompressSync(script));
    await writeFile(join(dir, 'assets', 'app-Ef34Gh.js.gz'), gzipSync(script));
    await writeFile(join(dir, 'index.html.br'), brotliCompressSync('<!doctype html><title>app shell</title>'));
    ({ app } = await createTestApp({ clientDir: dir }));
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves index.html at / without caching', async () => {
    const res = await app.inject({ url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('app shell');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves fingerprinted assets as immutable and the worker and manifest as no-cache', async () => {
    const asset = await app.inject({ url: '/assets/index-Ab12Cd.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the brotli or gzip file the build wrote, as the browser accepts, and the plain one otherwise', async () => {
    const url = '/assets/app-Ef34Gh.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload).toEqual(brotliCompressSync(script));

    const gzip = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload).toEqual(gzipSync(script));

    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('has no address for a compressed copy: it is only ever sent in place of its file', async () => {
    const res = await app.inject({ url: '/assets/app-Ef34Gh.js.br' });
    expect(res.statusCode).toBe(404);
  });

  it('sends the app shell compressed on a client route too', async () => {
    const res = await app.inject({ url: '/websites/42', headers: { ...html, 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('falls back to index.html for client routes the router answers', async () => {
    const res = await app.inject({ url: '/cms/42/pages/edit/7', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('app shell');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('never falls back for /api paths or non-HTML requests', async () => {
    const api = await app.inject({ url: '/api/missing', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json().success).toBe(false);
    const image = await app.inject({ url: '/missing.png', headers: { accept: 'image/png' } });
    expect(image.statusCode).toBe(404);
    expect(image.body).not.toContain('app shell');
  });

  it('turns off what the app never uses of the device, on its pages and API answers alike', async () => {
    for (const res of [await app.inject({ url: '/', headers: html }), await app.inject({ url: '/cms/42/media', headers: html }), await app.inject({ url: '/api/missing' })]) {
      const policy = res.headers['permissions-policy'] as string;
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'bluetooth', 'display-capture']) expect(policy).toContain(`${feature}=()`);
      // Copying an API key needs the clipboard; a photo taken through a file input needs no camera permission.
      expect(policy).not.toContain('clipboard');
    }
  });

  it('answers a GET under /api too long for the router with the API’s 404, and a long navigation with the app, never a file lookup', async () => {
    const longId = await app.inject({ url: `/api/cms/pages/0195f0b4-0000-7000-8000-000000000000/${'x'.repeat(5000)}`, headers: html });
    expect(longId.statusCode).toBe(404);
    expect(longId.json()).toEqual({ success: false, message: messages.notFound.message });
    const longRoute = await app.inject({ url: `/api/${'y'.repeat(300)}`, headers: html });
    expect(longRoute.statusCode).toBe(404);
    expect(longRoute.json()).toEqual({ success: false, message: messages.routeNotFound.message });
    const navigation = await app.inject({ url: `/websites/${'z'.repeat(300)}`, headers: html });
    expect(navigation.statusCode).toBe(200);
    expect(navigation.body).toContain('app shell');
  });
});
