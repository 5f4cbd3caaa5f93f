import { join } from 'node:path';
import { buildApp } from '../../src/server/app';
import { hashPassword } from '../../src/server/auth/passwords';
import { createMailer } from '../../src/server/mail/mailer';
import { users } from '../../src/server/store/schema';
import { startMailCatcher } from './mail-catcher';
import { createTestStore } from './store';

export interface SeedUser {
  type: 'admin' | 'user' | 'partner' | 'teammember';
  email: string;
  username: string;
  password: string;
  firstName?: string;
  lastName?: string;
  language?: 'en' | 'de';
  verified?: boolean;
}

/**
 * The real server for browser tests: the built PWA from dist/client, a fresh in-memory store,
 * and mail over SMTP to a catcher in this process, so a test reads its PIN from a real mail.
 */
export async function startE2EServer() {
  const catcher = await startMailCatcher();
  const store = await createTestStore('pglite');
  const app = await buildApp({
    config: { clientDir: join(import.meta.dirname, '../../dist/client'), corsOrigins: [], logLevel: 'warn' },
    store,
    mailer: createMailer({ smtpUrl: catcher.url, from: 'Sitekeeper <cms@e2e.test>', outboxDir: '' }),
    logger: false,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  return {
    url,
    store,
    mail: catcher,
    async seedUser(user: SeedUser) {
      const [row] = await store.db
        .insert(users)
        .values({
          type: user.type,
          email: user.email,
          username: user.username,
          passwordHash: await hashPassword(user.password),
          verified: user.verified ?? true,
          firstName: user.firstName ?? '',
          lastName: user.lastName ?? '',
          language: user.language ?? 'en',
        })
        .returning();
      return row!;
    },
    async close() {
      await app.close();
      await catcher.close();
    },
  };
}
export type E2EServer = Awaited<ReturnType<typeof startE2EServer>>;
