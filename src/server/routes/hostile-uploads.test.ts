// @vitest-environment node
import type { MessageDescriptor } from '@lingui/core';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { seedCast, type Cast, type Who } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { html, pixelBomb, png, svg } from '../../../tests/support/uploads';
import { messages } from '../../contract/messages';
import { buildApp } from '../app';
import { FILE_KEY } from '../files/storage';
import { translator } from '../http/i18n';
import { appSettings, media, websites } from '../store/schema';

/*
 * Hostile and clumsy uploads (issue 17) against every upload route: the media library's single
 * and multiple upload, a website's preview and the installation's logo. Each is refused with a
 * translated 4xx or stored inert; nothing is ever written outside the files root, a refused upload
 * leaves no file and no row behind, and a pixel bomb is refused without the process growing.
 */

const de = translator('de');
/** What a refused pixel bomb may add to the process: decoding one of these would take gigabytes. */
const MEMORY_BOUND = 64 * 1024 * 1024;

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; type: string };
interface Body {
  payload: Buffer;
  headers: Record<string, string>;
}

/** A multipart/form-data body as a browser sends it; `boundary` names another one than the body uses. */
function form(parts: Part[], options: { boundary?: string; declared?: string } = {}): Body {
  const boundary = options.boundary ?? `----hostile${randomUUID().replaceAll('-', '')}`;
  const declared = options.declared ?? `boundary=${boundary}`;
  const chunks = parts.flatMap((part) =>
    'value' in part
      ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`)]
      : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`), part.data, Buffer.from('\r\n')],
  );
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; ${declared}`.trim().replace(/;$/, '') } };
}

/** The body as a dropped connection leaves it: the last `bytes` never arrived. */
const cut = (body: Body, bytes: number): Body => ({ ...body, payload: body.payload.subarray(0, body.payload.length - bytes) });

/** Every file under `dir`, as paths relative to it. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .toSorted();
}

/** A real PNG with a web page after its end: an image to an image decoder, a script to a browser that sniffs. */
const polyglot = async () => Buffer.concat([await png(24, 24), html]);
const pngBytes = await png(16, 16);

interface Target {
  name: string;
  who: Who;
  url: (cast: Cast) => string;
  /** The form field its files go in. */
  field: string;
  /** The media library takes PDFs too and names SVG's refusal; the other routes take images alone. */
  library: boolean;
}

const TARGETS: Target[] = [
  { name: 'media upload', who: 'ownerA', url: (cast) => `/api/cms/media/${cast.site.A}/upload`, field: 'file', library: true },
  { name: 'media upload-multiple', who: 'ownerA', url: (cast) => `/api/cms/media/${cast.site.A}/upload-multiple`, field: 'files', library: true },
  { name: 'website preview', who: 'ownerA', url: (cast) => `/api/websites/${cast.site.A}/upload-preview`, field: 'file', library: false },
  { name: 'settings logo', who: 'admin', url: () => '/api/settings/logo', field: 'file', library: false },
];

const file = (target: Target, filename: string, data: Buffer, type = 'image/png'): Part => ({ name: target.field, filename, data, type });

/** Refused with this status and message, in the caller's language (German here). */
function expectRefused(res: LightMyRequestResponse, status: number, message: MessageDescriptor) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, message: de(message) });
  expect(de(message)).not.toBe(message.message);
}

describe.each(storeKinds)('hostile uploads (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let cast: Cast;
  /** The files root sits two levels down, so a name that climbs out of it would land in `root`. */
  let root = '';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sk-hostile-'));
    store = await createTestStore(kind);
    app = await buildApp({ config: testAppConfig({ filesDir: join(root, 'data', 'files') }), store, mailer: memoryMailer(), logger: false });
    cast = await seedCast(store);
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  const upload = (target: Target, body: Body, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: target.url(cast), payload: body.payload, headers: { ...cast.headers[target.who], ...body.headers, 'accept-language': 'de', ...headers } });
  /** Everything an upload could leave behind: the files under the root, and the rows the routes write. */
  const footprint = async () => ({
    files: await tree(root),
    media: (await store.db.select({ id: media.id }).from(media).where(eq(media.websiteId, cast.site.A))).length,
    preview: (await store.db.select({ key: websites.previewKey, version: websites.version }).from(websites).where(eq(websites.id, cast.site.A)))[0],
    logo: (await store.db.select({ key: appSettings.cmsLogoKey, version: appSettings.version }).from(appSettings))[0],
  });

  describe.each(TARGETS)('$name', (target) => {
    it.each([
      ['an SVG with a script', (t: Target) => form([file(t, 'logo.svg', svg, 'image/svg+xml')]), 415, (t: Target) => (t.library ? messages.svgRefused : messages.imageTypeRefused)],
      ['an HTML page named .jpg', (t: Target) => form([file(t, 'photo.jpg', html, 'image/jpeg')]), 415, (t: Target) => (t.library ? messages.mediaTypeRefused : messages.imageTypeRefused)],
      ['a zero-byte file', (t: Target) => form([file(t, 'empty.png', Buffer.alloc(0))]), 400, () => messages.fileEmpty],
      ['a form without its closing boundary', (t: Target) => cut(form([file(t, 'a.png', pngBytes)]), 4), 400, () => messages.uploadIncomplete],
      ['a form cut off inside its file', (t: Target) => cut(form([file(t, 'a.png', pngBytes)]), 60), 400, () => messages.uploadIncomplete],
      ['a form cut off after its file, in the field that follows', (t: Target) => cut(form([file(t, 'a.png', pngBytes), { name: 'alt', value: 'y'.repeat(100) }]), 60), 400, () => messages.uploadIncomplete],
      ['a form under another boundary than it declares', (t: Target) => form([file(t, 'a.png', pngBytes)], { boundary: 'real', declared: 'boundary=declared' }), 400, () => messages.uploadIncomplete],
      ['a form that declares no boundary', (t: Target) => form([file(t, 'a.png', pngBytes)], { boundary: 'real', declared: '' }), 400, () => messages.uploadIncomplete],
      ['a form with a boundary too long to search for', (t: Target) => form([file(t, 'a.png', pngBytes)], { boundary: 'b'.repeat(300) }), 400, () => messages.uploadIncomplete],
    ])('refuses %s, translated, and leaves nothing behind', async (_case, body, status, message) => {
      // Read as it streams in, and read whole first when an Idempotency-Key asks for its digest.
      for (const headers of [{}, { 'idempotency-key': randomUUID() }] as Record<string, string>[]) {
        const before = await footprint();
        expectRefused(await upload(target, body(target), headers), status, message(target));
        expect(await footprint()).toEqual(before);
      }
    });

    it('refuses a pixel bomb within a bounded memory, and leaves nothing behind', async () => {
      const bomb = await pixelBomb(50_000, 50_000);
      const before = await footprint();
      // Decoding is warmed up by the first one; the second one (the library's kept as it came, if
      // it is the library) is measured.
      expectRefused(await upload(target, form([file(target, 'bomb.png', bomb)])), 413, messages.imageTooManyPixels);
      const rss = process.memoryUsage().rss;
      const kept = target.library ? [{ name: 'compressImages', value: 'false' }] : [];
      expectRefused(await upload(target, form([file(target, 'bomb.png', bomb), ...kept])), 413, messages.imageTooManyPixels);
      const grown = process.memoryUsage().rss - rss;
      expect(grown, `the process grew by ${(grown / 1024 / 1024).toFixed(1)} MiB`).toBeLessThan(MEMORY_BOUND);
      expect(await footprint()).toEqual(before);
    });

    it('stores a polyglot under a climbing name inert: its own type, nosniff, a sandbox, never a page', async () => {
      const climbing = '../../../evil.png';
      const res = await upload(target, form([file(target, climbing, await polyglot()), { name: 'folder', value: '../../etc' }]));
      expect(res.statusCode, res.body).toBeLessThan(300);
      const entity = [res.json().data].flat()[0] as Record<string, string>;
      if (target.library) expect(entity).toMatchObject({ fileName: 'evil.png', folder: '../../etc', mimetype: 'image/webp' });
      for (const url of [entity.url, entity.thumbUrl, entity.previewUrl, entity.cmsLogoUrl].filter(Boolean)) {
        const served = await app.inject({ url });
        expect(served.statusCode).toBe(200);
        expect(served.headers).toMatchObject({ 'content-type': 'image/webp', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'content-disposition': 'inline' });
        // Re-encoded: the page after the image's end is gone.
        expect(served.rawPayload.includes('<script')).toBe(false);
        expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
      }
    });
  });

  it('serves a polyglot the library keeps as it came with the type its bytes are, never as a page', async () => {
    const bytes = await polyglot();
    const res = await upload(TARGETS[1]!, form([{ name: 'compressImages', value: 'false' }, { name: 'files', filename: 'page.html', data: bytes, type: 'text/html' }]));
    expect(res.statusCode, res.body).toBe(201);
    const [entity] = res.json().data as Record<string, string>[];
    expect(entity).toMatchObject({ fileName: 'page.html', mimetype: 'image/png' });
    const served = await app.inject({ url: entity!.url! });
    expect(served.rawPayload.equals(bytes)).toBe(true);
    expect(served.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'content-disposition': 'inline' });
  });

  it('wrote no file, in all the uploads above, outside the files root or under a name of its own', async () => {
    const files = await tree(root);
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) expect(path).toMatch(new RegExp(`^data/files/${FILE_KEY.source.slice(1)}`));
  });
});
