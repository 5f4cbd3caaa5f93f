// @vitest-environment node
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { createTestStore } from '../../../tests/support/store';
import { multipartFile, png } from '../../../tests/support/uploads';
import { seedUser, seedWebsite } from '../../../tests/support/users';
import { buildApp } from '../app';
import { ConfigError, loadConfig, type S3Config } from '../config';
import { s3Storage } from './s3';
import { newFileKey } from './storage';

/* Uploaded files in an S3-compatible bucket: s3rver, in process, stands in for S3 or MinIO. */

const BUCKET = 'sitekeeper-files';
let root = '';
let server: S3rver;
let config: S3Config;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sk-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(root, 's3'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  config = loadConfig(
    { FILES_S3_BUCKET: BUCKET, FILES_S3_ENDPOINT: `http://127.0.0.1:${port}`, FILES_S3_ACCESS_KEY_ID: 'S3RVER', FILES_S3_SECRET_ACCESS_KEY: 'S3RVER', APP_SECRET: 'x'.repeat(32) },
    root,
  ).filesS3!;
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('S3 configuration', () => {
  const env = { APP_SECRET: 'x'.repeat(32) };
  it('is off without a bucket, and reads the bucket, endpoint, region, keys and path style', () => {
    expect(loadConfig(env, root).filesS3).toBeNull();
    expect(config).toEqual({ bucket: BUCKET, region: 'us-east-1', endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    // AWS itself: virtual-host style and the SDK's own credentials, unless told otherwise.
    expect(loadConfig({ ...env, FILES_S3_BUCKET: 'b', FILES_S3_REGION: 'eu-central-1' }, root).filesS3).toEqual({ bucket: 'b', region: 'eu-central-1', endpoint: null, forcePathStyle: false, credentials: null });
    expect(loadConfig({ ...env, FILES_S3_BUCKET: 'b', FILES_S3_ENDPOINT: 'https://r2.example', FILES_S3_FORCE_PATH_STYLE: 'false' }, root).filesS3?.forcePathStyle).toBe(false);
  });

  it('refuses half a key pair, an endpoint that is no URL and a path style that is no yes or no', () => {
    expect(() => loadConfig({ ...env, FILES_S3_BUCKET: 'b', FILES_S3_ACCESS_KEY_ID: 'id' }, root)).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, FILES_S3_BUCKET: 'b', FILES_S3_ENDPOINT: 'minio:9000' }, root)).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, FILES_S3_BUCKET: 'b', FILES_S3_FORCE_PATH_STYLE: 'yes' }, root)).toThrow(ConfigError);
  });
});

describe('S3 file storage', () => {
  it('puts, gets and removes a file under its key, with its type', async () => {
    const files = s3Storage(config);
    const key = newFileKey('media', 'pdf');
    await files.put(key, Buffer.from('%PDF-1.4 bytes'));
    expect((await files.get(key))?.toString()).toBe('%PDF-1.4 bytes');
    const client = new S3Client({ region: config.region, endpoint: config.endpoint!, forcePathStyle: true, credentials: config.credentials! });
    expect((await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).ContentType).toBe('application/pdf');
    client.destroy();
    await files.remove(key);
    expect(await files.get(key)).toBeNull();
    // Gone afterwards, whether it existed or not.
    await files.remove(key);
  });

  it('refuses a key the server did not make', async () => {
    const files = s3Storage(config);
    await expect(files.put('../outside.webp', Buffer.from('x'))).rejects.toThrow(/Not a file key/);
    await expect(files.get('media/../../x.webp')).rejects.toThrow(/Not a file key/);
  });

  it('is where the app keeps and serves uploads when configured, and nothing goes to the files folder', async () => {
    const filesDir = join(root, 'files');
    const store = await createTestStore('pglite');
    const app = await buildApp({ config: testAppConfig({ filesDir, filesS3: config }), store, mailer: memoryMailer(), logger: false });
    try {
      const owner = await seedUser(store, { type: 'user', email: 'o@example.test', username: 'o', password: 'unused password' });
      const site = await seedWebsite(store, { ownerId: owner.id });
      const auth = bearer(await tokenFor(store, owner.id));
      const body = multipartFile({ data: await png(600, 300), filename: 'wide.png', contentType: 'image/png' });
      const res = await app.inject({ method: 'POST', url: `/api/cms/media/${site.id}/upload`, payload: body.payload, headers: { ...auth, ...body.headers } });
      expect(res.statusCode).toBe(201);
      const item = res.json().data;
      const served = await app.inject({ url: item.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers).toMatchObject({ 'content-type': 'image/webp', 'x-content-type-options': 'nosniff' });
      const files = s3Storage(config);
      const key = item.url.replace('/api/files/', '');
      expect((await files.get(key))?.equals(served.rawPayload)).toBe(true);
      await expect(readdir(filesDir)).rejects.toThrow(/ENOENT/);
      const gone = await app.inject({ method: 'DELETE', url: `/api/cms/media/${site.id}/media/${item._id}`, headers: { ...auth, 'if-match': '"1"' } });
      expect(gone.statusCode).toBe(200);
      // Kept while the recycle bin keeps the record; purged from there, removed from the bucket.
      expect(await files.get(key)).not.toBeNull();
      const bin = `/api/websites/${site.id}/recycle-bin`;
      const [entry] = (await app.inject({ url: bin, headers: auth })).json().data as { _id: string }[];
      expect((await app.inject({ method: 'DELETE', url: `${bin}/${entry!._id}`, headers: { ...auth, 'if-match': '"1"' } })).statusCode).toBe(200);
      await expect.poll(() => files.get(key)).toBeNull();
      expect(await files.get(item.thumbUrl.replace('/api/files/', ''))).toBeNull();
    } finally {
      await app.close();
    }
  });
});
