// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { data, seedCast, sender, type Cast, type Who } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { png, svg } from '../../../tests/support/uploads';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { buildApp } from '../app';
import { MEDIA_LIMITS, safeFileName } from '../content/media';
import { media } from '../store/schema';

/*
 * Spec §7 Media on PGlite and PostgreSQL: uploads decided by their bytes, stored under the
 * server's keys and served inert; the generic list, get, update, delete and stats over them; and
 * what a hostile upload or a caller outside the module gets.
 */

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; contentType?: string };

/** A multipart/form-data body of several parts, files and fields, as a browser's form sends it. */
function form(...parts: Part[]) {
  const boundary = `----media${randomUUID().replaceAll('-', '')}`;
  const chunks = parts.flatMap((part) =>
    'value' in part
      ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`)]
      : [
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`),
          part.data,
          Buffer.from('\r\n'),
        ],
  );
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const file = (filename: string, bytes: Buffer, name = 'file') => ({ name, filename, data: bytes, contentType: 'image/png' });
const field = (name: string, value: string) => ({ name, value });
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const gif = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3366' } }).gif().toBuffer();
const jpeg = () => sharp({ create: { width: 900, height: 600, channels: 3, background: '#33cc66' } }).jpeg().toBuffer();

/** Every file under `dir`, as paths relative to it. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe('a file name kept as text', () => {
  it('loses path parts, control and invisible characters, and is at most 200 characters', () => {
    expect(safeFileName('../../evil.png')).toBe('evil.png');
    expect(safeFileName('C:\\Users\\x\\photo.jpg')).toBe('photo.jpg');
    expect(safeFileName('in\u0000voice\u001b[31m.pdf')).toBe('invoice[31m.pdf');
    expect(safeFileName('report\u202Egpj.exe')).toBe('reportgpj.exe');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName('  \u200B ')).toBe('file');
    expect([...safeFileName(`${'ä'.repeat(300)}.png`)]).toHaveLength(MEDIA_LIMITS.maxFileName);
  });
});

type Person = Who | 'viewer' | 'manager';
type Send = ReturnType<typeof sender>;

describe.each(storeKinds)('the media library (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let cast: Cast;
  let send: (who: Person, ...rest: Parameters<Send> extends [Who, ...infer R] ? R : never) => ReturnType<Send>;
  /** The files root sits two levels down, so `../../evil.png` from it would land in `root`. */
  let root = '';
  let filesDir = '';
  const headers = {} as Record<Person, Record<string, string>>;
  const A = () => `/api/cms/media/${cast.site.A}`;
  const B = () => `/api/cms/media/${cast.site.B}`;
  const stored = (url: string) => join(filesDir, url.replace('/api/files/', ''));
  /** Rows and files of website A, to show a refused upload left nothing behind. */
  const footprint = async () => ({ rows: (await store.db.select({ id: media.id }).from(media).where(eq(media.websiteId, cast.site.A))).length, files: (await tree(root)).length });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sk-media-'));
    filesDir = join(root, 'data', 'files');
    store = await createTestStore(kind);
    app = await buildApp({ config: testAppConfig({ filesDir }), store, mailer: memoryMailer(), logger: false });
    cast = await seedCast(store);
    // Team members of A with the media module at view and at manage (the cast's have pages only).
    for (const [who, level] of [['viewer', 'view'], ['manager', 'manage']] as const) {
      const user = await seedUser(store, {
        type: 'teammember',
        email: `${who}@example.test`,
        username: who,
        password: 'unused password',
        websiteId: cast.site.A,
        role: { name: who, permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { media: level } },
      });
      headers[who] = bearer(await tokenFor(store, user.id));
    }
    Object.assign(headers, cast.headers);
    const asWho = sender(app, () => headers);
    send = (who, ...rest) => asWho(who as Who, ...rest);
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('stores an uploaded image as WebP within 2400 px with a 400-px thumbnail, and serves both inert', async () => {
    const image = await png(3000, 1500);
    const res = await send('ownerA', 'POST', `${A()}/upload`, form(file('photo.png', image), field('alt', ' A beach '), field('description', 'At noon'), field('folder', 'holidays')));
    expect(res.statusCode).toBe(201);
    const item = data(res);
    expect(item).toMatchObject({ fileName: 'photo.png', mimetype: 'image/webp', width: 2400, height: 1200, alt: 'A beach', description: 'At noon', folder: 'holidays', version: 1 });
    expect(res.headers.etag).toBe('"1"');
    expect(res.json().message).toBe('File created successfully');
    expect(item.url).toMatch(/^\/api\/files\/media\/[0-9a-f-]{36}\.webp$/);
    expect(item.thumbUrl).toMatch(/^\/api\/files\/media\/[0-9a-f-]{36}\.webp$/);
    const served = await app.inject({ url: item.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers).toMatchObject({ 'content-type': 'image/webp', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox", 'content-disposition': 'inline' });
    expect(served.rawPayload.length).toBe(item.size);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 2400, height: 1200 });
    const thumb = await app.inject({ url: item.thumbUrl });
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400, height: 200 });
    // The same as a GET answers it.
    expect(data(await send('ownerA', 'GET', `${A()}/media/${item._id}`))).toEqual(item);
  });

  it('keeps the original bytes and their sniffed type when asked not to compress, still with a WebP thumbnail', async () => {
    const original = await jpeg();
    const res = await send('manager', 'POST', `${A()}/upload`, form(field('compressImages', 'false'), { name: 'file', filename: 'shot.webp', data: original, contentType: 'image/webp' }));
    expect(res.statusCode).toBe(201);
    const item = data(res);
    // The name and the claimed type said WebP; the bytes are a JPEG.
    expect(item).toMatchObject({ fileName: 'shot.webp', mimetype: 'image/jpeg', size: original.length, width: 900, height: 600 });
    expect(item.url).toMatch(/\.jpg$/);
    const served = await app.inject({ url: item.url });
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(original)).toBe(true);
    expect(await sharp((await app.inject({ url: item.thumbUrl })).rawPayload).metadata()).toMatchObject({ format: 'webp', width: 400 });
  });

  it('stores a PDF as it came, without a thumbnail, served as a download', async () => {
    const item = data(await send('ownerA', 'POST', `${A()}/upload`, form({ name: 'file', filename: 'menu.pdf', data: pdf, contentType: 'application/pdf' })));
    expect(item).toMatchObject({ fileName: 'menu.pdf', mimetype: 'application/pdf', size: pdf.length, width: null, height: null, thumbUrl: null });
    const served = await app.inject({ url: item.url });
    expect(served.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-disposition': 'attachment', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" });
    expect(served.rawPayload.equals(pdf)).toBe(true);
  });

  it('uploads several files at once, in their order, into one folder', async () => {
    const res = await send('ownerA', 'POST', `${A()}/upload-multiple`, form(field('folder', 'batch'), file('one.png', await png(10, 10), 'files'), file('two.gif', await gif(), 'files'), { name: 'files', filename: 'three.pdf', data: pdf }));
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('3 files uploaded');
    const items = data(res);
    expect(items.map((item: { fileName: string; mimetype: string; folder: string }) => [item.fileName, item.mimetype, item.folder])).toEqual([
      ['one.png', 'image/webp', 'batch'],
      ['two.gif', 'image/webp', 'batch'],
      ['three.pdf', 'application/pdf', 'batch'],
    ]);
    const kept = await send('ownerA', 'POST', `${A()}/upload-multiple`, form(field('compressImages', '0'), file('anim.gif', await gif(), 'files')));
    expect(data(kept)[0]).toMatchObject({ mimetype: 'image/gif', width: 40, height: 30 });
    expect((await app.inject({ url: data(kept)[0].url })).headers['content-type']).toBe('image/gif');
  });

  it('lists with page, limit, search, mimetype, folder and sort, and counts', async () => {
    const upload = async (parts: Part[], path = 'upload-multiple') => expect((await send('ownerB', 'POST', `${B()}/${path}`, form(...parts))).statusCode).toBe(201);
    await upload([field('folder', 'photos'), file('a-beach.png', await png(50, 40), 'files'), file('b-cat.gif', await gif(), 'files')]);
    await upload([field('folder', 'docs'), { name: 'files', filename: 'c-menu.pdf', data: pdf }]);
    await upload([field('folder', 'photos'), field('compressImages', 'false'), file('d-logo.png', await png(20, 20))], 'upload');
    const names = async (query: string) => {
      const res = await send('ownerB', 'GET', `${B()}?${query}`);
      expect(res.statusCode, query).toBe(200);
      return { names: data(res).map((item: { fileName: string }) => item.fileName), pagination: res.json().pagination };
    };
    expect(await names('sortBy=fileName&limit=2&page=1')).toEqual({ names: ['a-beach.png', 'b-cat.gif'], pagination: { currentPage: 1, totalPages: 2, totalItems: 4, itemsPerPage: 2 } });
    expect((await names('sortBy=fileName&limit=2&page=2')).names).toEqual(['c-menu.pdf', 'd-logo.png']);
    expect((await names('sortBy=fileName&sortOrder=desc')).names).toEqual(['d-logo.png', 'c-menu.pdf', 'b-cat.gif', 'a-beach.png']);
    expect((await names('search=CAT')).names).toEqual(['b-cat.gif']);
    expect((await names('mimetype=image&sortBy=fileName')).names).toEqual(['a-beach.png', 'b-cat.gif', 'd-logo.png']);
    expect((await names('mimetype=image/png')).names).toEqual(['d-logo.png']);
    expect((await names('mimetype=application')).names).toEqual(['c-menu.pdf']);
    // A family is a whole word: `im` is none.
    expect((await names('mimetype=im')).names).toEqual([]);
    expect((await names('folder=photos&mimetype=image/webp&sortBy=fileName')).names).toEqual(['a-beach.png', 'b-cat.gif']);
    const bySize = data(await send('ownerB', 'GET', `${B()}?sortBy=size&sortOrder=desc`)).map((item: { size: number }) => item.size);
    expect(bySize).toEqual(bySize.toSorted((x: number, y: number) => y - x));
    expect(data(await send('ownerB', 'GET', `${B()}/stats`))).toMatchObject({ total: 4, recent: 4 });
  });

  it('changes alt, description and folder, never what the server decided', async () => {
    const item = data(await send('ownerA', 'POST', `${A()}/upload`, form(file('edit.png', await png(8, 8)))));
    const res = await send('ownerA', 'PUT', `${A()}/media/${item._id}`, { alt: 'New alt', folder: 'moved', mimetype: 'text/html', fileName: 'x.html', url: '/elsewhere' }, 1);
    expect(res.statusCode).toBe(200);
    expect(data(res)).toMatchObject({ alt: 'New alt', folder: 'moved', mimetype: 'image/webp', fileName: 'edit.png', url: item.url, version: 2 });
    expect((await send('ownerA', 'PUT', `${A()}/media/${item._id}`, { alt: 'x'.repeat(301) }, 2)).statusCode).toBe(400);
  });

  it('removes the files once nothing can bring their record back, and keeps them when a delete does not go through', async () => {
    const item = data(await send('ownerA', 'POST', `${A()}/upload`, form(file('gone.png', await png(30, 30)))));
    const files = [stored(item.url), stored(item.thumbUrl)];
    expect(files.every((path) => existsSync(path))).toBe(true);
    // A stale version, and a picture a gallery still shows: refused, files kept.
    expect((await send('ownerA', 'DELETE', `${A()}/media/${item._id}`, undefined, 7)).statusCode).toBe(409);
    const slider = data(await send('ownerA', 'POST', `/api/cms/gallery-sliders/${cast.site.A}`, { name: 'Gallery' }));
    const slides = `/api/cms/gallery-sliders/${cast.site.A}/gallery-sliders/${slider._id}/slides`;
    const slide = data(await send('ownerA', 'POST', slides, { mediaId: item._id }));
    const inUse = await send('ownerA', 'DELETE', `${A()}/media/${item._id}`, undefined, 1);
    expect(inUse.statusCode).toBe(400);
    expect(files.every((path) => existsSync(path))).toBe(true);
    expect((await app.inject({ url: item.url })).statusCode).toBe(200);
    expect((await send('ownerA', 'DELETE', `${slides}/${slide._id}`, undefined, 1)).statusCode).toBe(200);
    expect((await send('ownerA', 'DELETE', `${A()}/media/${item._id}`, undefined, 1)).statusCode).toBe(200);
    expect((await send('ownerA', 'GET', `${A()}/media/${item._id}`)).statusCode).toBe(404);
    // In the recycle bin, it may come back: its files wait; purged from there, they go.
    expect(files.every((path) => existsSync(path))).toBe(true);
    const bin = `/api/websites/${cast.site.A}/recycle-bin`;
    const entry = (data(await send('ownerA', 'GET', bin)) as unknown as { _id: string; title: string }[]).find((one) => one.title === 'gone.png')!;
    expect((await send('ownerA', 'DELETE', `${bin}/${entry._id}`, undefined, 1)).statusCode).toBe(200);
    await expect.poll(() => files.some((path) => existsSync(path))).toBe(false);
    expect((await app.inject({ url: item.url })).statusCode).toBe(404);
  });

  // What every upload route refuses (SVG, HTML, polyglots, pixel bombs, empty and cut-off forms,
  // climbing names) is in hostile-uploads.test.ts; these are the library's own limits.
  describe('refused uploads', () => {
    it.each([
      ['no file at all', () => form(field('alt', 'nothing')), 400, messages.fileMissing.message],
      ['a file over the size limit', async () => form(file('huge.png', Buffer.concat([await png(4, 4), Buffer.alloc(MEDIA_LIMITS.maxBytes)]))), 413, messages.fileTooLarge.message],
      ['two files on the single upload', async () => form(file('a.png', await png(4, 4)), file('b.png', await png(4, 4))), 413, messages.payloadTooLarge.message],
      ['an alt text over 300 characters', async () => form(file('a.png', await png(4, 4)), field('alt', 'x'.repeat(301))), 400, messages.tooLong.message],
    ])('refuses %s and stores nothing', async (_case, body, status, message) => {
      const before = await footprint();
      const res = await send('ownerA', 'POST', `${A()}/upload`, await body());
      expect(res.statusCode).toBe(status);
      expect(res.json().message + JSON.stringify(res.json().errors ?? [])).toContain(message);
      if (status === 413 && message === messages.fileTooLarge.message) expect(res.json().data).toEqual({ maxBytes: MEDIA_LIMITS.maxBytes });
      expect(await footprint()).toEqual(before);
    });

    it('refuses a whole multiple upload when one file is refused', async () => {
      const before = await footprint();
      const res = await send('ownerA', 'POST', `${A()}/upload-multiple`, form(file('good.png', await png(20, 20), 'files'), file('fine.png', await png(20, 20), 'files'), { name: 'files', filename: 'bad.svg', data: svg }));
      expect(res.statusCode).toBe(415);
      expect(await footprint()).toEqual(before);
    });

    it('removes the files it stored when their rows cannot be written', async () => {
      // The store refuses one of the rows, after every file of the upload was stored.
      await store.db.execute(sql.raw(`create function refuse_media() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`));
      await store.db.execute(sql.raw(`create trigger refuse_media before insert on media for each row when (new.file_name = 'refused.png') execute function refuse_media()`));
      try {
        const before = await footprint();
        const res = await send('ownerA', 'POST', `${A()}/upload-multiple`, form(file('stored.png', await png(20, 20), 'files'), file('refused.png', await png(20, 20), 'files')));
        expect(res.statusCode).toBe(500);
        expect(await footprint()).toEqual(before);
      } finally {
        await store.db.execute(sql.raw('drop trigger refuse_media on media'));
      }
    });
  });

  describe('who may', () => {
    it('answers a file of website B through A’s path as an unknown one, and changes nothing', async () => {
      const ofB = data(await send('ownerB', 'POST', `${B()}/upload`, form(file('b-only.png', await png(8, 8)))));
      for (const [method, body, version] of [['GET'], ['PUT', { alt: 'taken' }, 1], ['DELETE', undefined, 1]] as const) {
        const res = await send('ownerA', method, `${A()}/media/${ofB._id}`, body, version);
        expect(`${method} → ${res.statusCode}`).toBe(`${method} → 404`);
      }
      expect(data(await send('ownerB', 'GET', `${B()}/media/${ofB._id}`))).toEqual(ofB);
      expect((await app.inject({ url: ofB.url })).statusCode).toBe(200);
      // And the stranger cannot upload into, list or count B's library.
      for (const [method, path, body] of [['POST', '/upload', form(file('x.png', await png(4, 4)))], ['POST', '/upload-multiple', form(file('x.png', await png(4, 4), 'files'))], ['GET', ''], ['GET', '/stats']] as const) {
        expect((await send('ownerA', method, `${B()}${path}`, body)).statusCode).toBe(404);
        expect((await send('memberA', method, `${B()}${path}`, body)).statusCode).toBe(404);
      }
    });

    it('follows the media module’s levels: none → 403, view reads, manage uploads and deletes', async () => {
      const upload = async (who: Person, path = '/upload') => (await send(who, 'POST', `${A()}${path}`, form(file('m.png', await png(4, 4), path === '/upload' ? 'file' : 'files')))).statusCode;
      // memberA has every flag but no level for media; plainA the CMS alone.
      for (const who of ['memberA', 'plainA'] as const) {
        expect((await send(who, 'GET', A())).statusCode).toBe(403);
        expect(await upload(who)).toBe(403);
        expect(await upload(who, '/upload-multiple')).toBe(403);
      }
      expect((await send('viewer', 'GET', A())).statusCode).toBe(200);
      expect((await send('viewer', 'GET', `${A()}/stats`)).statusCode).toBe(200);
      expect(await upload('viewer')).toBe(403);
      expect(await upload('manager')).toBe(201);
      expect(await upload('manager', '/upload-multiple')).toBe(201);
      expect(await upload('admin')).toBe(201);
      expect(await upload('partner')).toBe(201);
      expect(await upload('anonymous')).toBe(401);
    });
  });
});
