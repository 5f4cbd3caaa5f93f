// @vitest-environment node
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';

const html = { accept: 'text/html,application/xhtml+xml' };

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
});
