import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type StoreConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  store: StoreConfig;
  smtpUrl: string | null;
  mailFrom: string;
  adminEmail: string | null;
  adminPassword: string | null;
  /** First start adds demo data (DESIGN §8); `DEMO=0` starts empty but for the admin and the languages. */
  demo: boolean;
  appSecret: string;
  corsOrigins: string[];
  logLevel: string;
  /** Fastify's trustProxy: false, true, a hop count or the proxies' addresses. */
  trustProxy: boolean | number | string;
  /** The built PWA; null serves the API alone. */
  clientDir: string | null;
  /** Uploaded files (files/storage.ts): `DATA_DIR/files`. */
  filesDir: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 9112;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return port;
}

function parseStore(url: string | undefined, dataDir: string): StoreConfig {
  if (!url) return { kind: 'pglite', dataDir: join(dataDir, 'db') };
  if (url === 'memory://') return { kind: 'pglite', dataDir: null };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  throw new ConfigError('DATABASE_URL must be unset, memory:// or a postgres:// URL');
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** APP_SECRET encrypts stored secrets; without one a key is generated once and kept beside the data. */
function resolveSecret(value: string | undefined, dataDir: string): string {
  if (value) {
    if (value.length < 32) throw new ConfigError('APP_SECRET must be at least 32 characters');
    return value;
  }
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  // Two instances starting at once must agree on one key: the whole file appears in one step
  // (a hard link of a finished temporary file), and whoever loses the race reads the winner's.
  const secret = randomBytes(32).toString('base64url');
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, secret + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8').trim();
  } finally {
    unlinkSync(draft);
  }
}

/** docs/design.md §8: configuration comes from the environment, and only from here. */
export function loadConfig(env: Env = process.env, root = process.cwd()): Config {
  const dataDir = resolve(root, env.DATA_DIR || './data');
  const clientDir = resolve(root, 'dist/client');
  return {
    port: parsePort(env.PORT),
    host: env.HOST || '127.0.0.1',
    dataDir,
    store: parseStore(env.DATABASE_URL, dataDir),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Sitekeeper <no-reply@localhost>',
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    demo: env.DEMO !== '0',
    appSecret: resolveSecret(env.APP_SECRET, dataDir),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    clientDir: existsSync(join(clientDir, 'index.html')) ? clientDir : null,
    filesDir: join(dataDir, 'files'),
  };
}
