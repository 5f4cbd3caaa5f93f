import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import { createMailer } from '../../src/server/mail/mailer';
import { testAppConfig } from './app';
import { startMailCatcher } from './mail-catcher';
import type { Store } from '../../src/server/store/open';
import { createTestStore } from './store';
import { seedUser, type SeedUser } from './users';

/**
 * The real server for browser tests: the built PWA from dist/client, a fresh in-memory store (or
 * the one given: two servers of one PostgreSQL), and mail over SMTP to a catcher in this process, so a test reads its PIN from a real mail.
 */
export async function startE2EServer(given?: Store) {
  const catcher = await startMailCatcher();
  const store = given ?? (await createTestStore('pglite'));
  const app = await buildApp({
    // Errors only: a failed browser test's output then says what went wrong on the server.
    config: testAppConfig({ clientDir: join(import.meta.dirname, '../../dist/client'), logLevel: 'error' }),
    store,
    mailer: createMailer({ smtpUrl: catcher.url, from: 'Sitekeeper <cms@e2e.test>', outboxDir: '' }),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  return {
    url,
    store,
    mail: catcher,
    seedUser: (user: SeedUser) => seedUser(store, user),
    async close() {
      await app.close();
      await catcher.close();
    },
  };
}
export type E2EServer = Awaited<ReturnType<typeof startE2EServer>>;
