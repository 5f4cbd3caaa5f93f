import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/server/app';
import type { Mail, Mailer } from '../../src/server/mail/mailer';
import type { StoreKind } from '../../src/server/store/open';
import { createTestStore } from './store';

const TEST_SECRET = 'test-secret-that-is-at-least-32-characters';
/** Uploads of every test server: keys are random UUIDs, so servers never meet there. */
export const TEST_FILES_DIR = join(tmpdir(), 'sitekeeper-test-files');

/** Keeps sent mail in memory; tests that exercise SMTP itself use a real SMTP server instead. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return { sent, send: async (mail) => void sent.push(mail), close: () => {} };
}

/** The config every test and benchmark server runs with; `overrides` for what one of them needs otherwise. */
export function testAppConfig(overrides: Partial<AppDeps['config']> = {}): AppDeps['config'] {
  return { clientDir: null, corsOrigins: [], logLevel: 'silent', appSecret: TEST_SECRET, trustProxy: false, filesDir: TEST_FILES_DIR, publicUrl: 'http://127.0.0.1:9112', ...overrides };
}

export interface TestAppOptions {
  kind?: StoreKind;
  clientDir?: string | null;
  logger?: AppDeps['logger'];
  clock?: () => Date;
  trustProxy?: AppDeps['config']['trustProxy'];
}

/** The real app on a fresh real store; closing the app closes (and for PostgreSQL drops) the store. */
export async function createTestApp({ kind = 'pglite', clientDir = null, logger = false, clock, trustProxy = false }: TestAppOptions = {}) {
  const store = await createTestStore(kind);
  const mailer = memoryMailer();
  const app: FastifyInstance = await buildApp({
    config: testAppConfig({ clientDir, trustProxy }),
    store,
    mailer,
    logger,
    clock,
  });
  return { app, store, mailer };
}
