// @vitest-environment node
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dirs: string[] = [];
afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

async function root() {
  const dir = await mkdtemp(join(tmpdir(), 'sk-config-'));
  dirs.push(dir);
  return dir;
}

describe('configuration from the environment', () => {
  it('defaults to 127.0.0.1:9112 and an embedded store in ./data', async () => {
    const dir = await root();
    const config = loadConfig({}, dir);
    expect(config).toMatchObject({ port: 9112, host: '127.0.0.1', dataDir: join(dir, 'data'), corsOrigins: [] });
    expect(config.store).toEqual({ kind: 'pglite', dataDir: join(dir, 'data', 'db') });
    expect(config.smtpUrl).toBeNull();
    expect(config.clientDir).toBeNull();
  });

  it('selects the store from DATABASE_URL', async () => {
    const dir = await root();
    expect(loadConfig({ DATABASE_URL: 'memory://' }, dir).store).toEqual({ kind: 'pglite', dataDir: null });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }, dir).store).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' }, dir)).toThrow(ConfigError);
  });

  it('rejects a port that is not one', async () => {
    const dir = await root();
    expect(() => loadConfig({ PORT: 'eighty' }, dir)).toThrow(ConfigError);
    expect(loadConfig({ PORT: '8080', HOST: '0.0.0.0' }, dir)).toMatchObject({ port: 8080, host: '0.0.0.0' });
  });

  it('takes PUBLIC_URL as an origin, by default the address it listens on', async () => {
    const dir = await root();
    const publicUrl = (env: Record<string, string>) => loadConfig(env, dir).publicUrl;
    expect(publicUrl({})).toBe('http://127.0.0.1:9112');
    expect(publicUrl({ HOST: 'cms.local', PORT: '8080' })).toBe('http://cms.local:8080');
    expect(publicUrl({ HOST: '::1' })).toBe('http://[::1]:9112');
    // Listening everywhere names no address people can reach: loopback, until PUBLIC_URL says.
    expect(publicUrl({ HOST: '0.0.0.0' })).toBe('http://127.0.0.1:9112');
    expect(publicUrl({ HOST: '::' })).toBe('http://127.0.0.1:9112');
    expect(publicUrl({ PUBLIC_URL: 'https://cms.example.com/' })).toBe('https://cms.example.com');
    expect(publicUrl({ PUBLIC_URL: 'http://10.0.0.5:9112' })).toBe('http://10.0.0.5:9112');
    for (const PUBLIC_URL of ['cms.example.com', 'ftp://cms.example.com', 'https://cms.example.com/admin', 'https://cms.example.com?x=1', 'https://cms.example.com/#top', 'https://user:pw@cms.example.com', 'javascript:alert(1)']) {
      expect(() => loadConfig({ PUBLIC_URL }, dir), PUBLIC_URL).toThrow(ConfigError);
    }
    expect(() => loadConfig({ PUBLIC_URL: 'https://cms.example.com/admin' }, dir)).toThrow('PUBLIC_URL must be an http:// or https:// address without a path');
  });

  it('generates APP_SECRET once into DATA_DIR, readable only by its owner, and keeps it', async () => {
    const dir = await root();
    const first = loadConfig({ DATA_DIR: 'store' }, dir).appSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: 'store' }, dir).appSecret).toBe(first);
    expect((await readFile(join(dir, 'store', 'app-secret'), 'utf8')).trim()).toBe(first);
    expect((await stat(join(dir, 'store', 'app-secret'))).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: 'store', APP_SECRET: 'x'.repeat(40) }, dir).appSecret).toBe('x'.repeat(40));
    expect(() => loadConfig({ APP_SECRET: 'short' }, dir)).toThrow(ConfigError);
  });

  it('reads the remaining settings', async () => {
    const dir = await root();
    const config = loadConfig(
      { SMTP_URL: 'smtp://mail:25', MAIL_FROM: 'x@y.z', ADMIN_EMAIL: 'a@b.c', ADMIN_PASSWORD: 'pw', CORS_ORIGINS: 'https://a.de, https://b.de' },
      dir,
    );
    expect(config).toMatchObject({
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'x@y.z',
      adminEmail: 'a@b.c',
      adminPassword: 'pw',
      demo: true,
      corsOrigins: ['https://a.de', 'https://b.de'],
      trustProxy: false,
    });
    expect(['true', '2', '10.0.0.1', 'false'].map((TRUST_PROXY) => loadConfig({ TRUST_PROXY }, dir).trustProxy)).toEqual([true, 2, '10.0.0.1', false]);
  });
});

describe('history retention', () => {
  it('keeps a year and 200 revisions of a record unless told, and never less than the recycle bin’s 30 days', async () => {
    const dir = await root();
    expect(loadConfig({}, dir).history).toEqual({ keepDays: 365, perRecord: 200 });
    expect(loadConfig({ HISTORY_KEEP_DAYS: '90', HISTORY_PER_RECORD: '50' }, dir).history).toEqual({ keepDays: 90, perRecord: 50 });
    expect(() => loadConfig({ HISTORY_KEEP_DAYS: '7' }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ HISTORY_PER_RECORD: 'many' }, dir)).toThrow(/HISTORY_PER_RECORD/);
  });
});
