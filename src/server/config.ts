import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type StoreConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  /** Where people reach this server (`https://cms.example.com`): every link in a mail starts with it, never with a request's headers. */
  publicUrl: string;
  dataDir: string;
  store: StoreConfig;
  smtpUrl: string | null;
  /**
   * Websites' own mail servers (contact forms) may be at loopback, private or link-local addresses
   * (`SMTP_ALLOW_PRIVATE=1`): only where this installation's mail servers really live there.
   */
  smtpAllowPrivate: boolean;
  /**
   * Webhooks may be sent to loopback, private or link-local addresses (`WEBHOOKS_ALLOW_PRIVATE=1`):
   * only where this installation's receivers really live there.
   */
  webhooksAllowPrivate: boolean;
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
  /** S3-compatible object storage for uploaded files instead of `filesDir` (FILES_S3_BUCKET set). */
  filesS3: S3Config | null;
  /** How long records' revisions (their history and the activity log) are kept (store/retention.ts). */
  history: HistoryRetention;
}

/** HISTORY_KEEP_DAYS (365) and HISTORY_PER_RECORD (200): a revision goes when it is older, or past the newest of its record. */
export interface HistoryRetention {
  keepDays: number;
  perRecord: number;
}

/** The recycle bin keeps a deleted record for 30 days, from its delete's revisions: history must outlive that. */
const MIN_KEEP_DAYS = 30;

/** A bucket of S3 or an S3-compatible store (MinIO, Ceph, R2…); no credentials: the SDK's own chain (AWS_*, an instance role). */
export interface S3Config {
  bucket: string;
  region: string;
  /** Another store than AWS S3 (`https://minio.example:9000`); null for AWS. */
  endpoint: string | null;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`: what most self-hosted stores need. */
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 9112;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return port;
}

/** PUBLIC_URL as an origin; by default the address the server listens on, loopback for a wildcard one. */
function parsePublicUrl(value: string | undefined, host: string, port: number): string {
  if (!value) {
    const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return `http://${name}:${port}`;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  // The app is served from the root: a path, query or fragment would make every link wrong.
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be an http:// or https:// address without a path, e.g. https://cms.example.com, got "${value}"`);
  }
  return url.origin;
}

function parseStore(url: string | undefined, dataDir: string): StoreConfig {
  if (!url) return { kind: 'pglite', dataDir: join(dataDir, 'db') };
  if (url === 'memory://') return { kind: 'pglite', dataDir: null };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  throw new ConfigError('DATABASE_URL must be unset, memory:// or a postgres:// URL');
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${value}"`);
  return parsed;
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

function parseS3(env: Env): S3Config | null {
  const bucket = env.FILES_S3_BUCKET;
  if (!bucket) return null;
  const endpoint = env.FILES_S3_ENDPOINT || null;
  if (endpoint && !/^https?:\/\/[^\s/]+/.test(endpoint)) throw new ConfigError('FILES_S3_ENDPOINT must be an http:// or https:// URL');
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together');
  const pathStyle = env.FILES_S3_FORCE_PATH_STYLE;
  if (pathStyle && !['true', 'false', '1', '0'].includes(pathStyle)) throw new ConfigError('FILES_S3_FORCE_PATH_STYLE must be true or false');
  return {
    bucket,
    region: env.FILES_S3_REGION || 'us-east-1',
    endpoint,
    // Self-hosted stores rarely have a DNS name per bucket; AWS wants the virtual-host style.
    forcePathStyle: pathStyle ? pathStyle === 'true' || pathStyle === '1' : endpoint !== null,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
  };
}

/** docs/design.md §8: configuration comes from the environment, and only from here. */
export function loadConfig(env: Env = process.env, root = process.cwd()): Config {
  const dataDir = resolve(root, env.DATA_DIR || './data');
  const clientDir = resolve(root, 'dist/client');
  const port = parsePort(env.PORT);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    publicUrl: parsePublicUrl(env.PUBLIC_URL, host, port),
    dataDir,
    store: parseStore(env.DATABASE_URL, dataDir),
    smtpUrl: env.SMTP_URL || null,
    smtpAllowPrivate: env.SMTP_ALLOW_PRIVATE === '1' || env.SMTP_ALLOW_PRIVATE === 'true',
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1' || env.WEBHOOKS_ALLOW_PRIVATE === 'true',
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
    filesS3: parseS3(env),
    history: { keepDays: wholeNumber('HISTORY_KEEP_DAYS', env.HISTORY_KEEP_DAYS, 365, MIN_KEEP_DAYS), perRecord: wholeNumber('HISTORY_PER_RECORD', env.HISTORY_PER_RECORD, 200, 1) },
  };
}
