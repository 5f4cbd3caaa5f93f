// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import type { Store } from '../store/open';
import { sessions, users } from '../store/schema';

/*
 * Who a token is, remembered between requests (auth/principals.ts, ADR 034): remembered indeed,
 * and forgotten when sessions or users change, through this server or straight in the database as
 * another server would change them.
 */
describe.each(storeKinds)('who a bearer token is, remembered (%s)', (kind) => {
  let app: FastifyInstance;
  let store: Store;
  let seeded = 0;
  beforeAll(async () => ({ app, store } = await createTestApp({ kind })));
  afterAll(() => app.close());

  const signedIn = async () => {
    seeded += 1;
    const user = await seedUser(store, { type: 'admin', email: `remembered${seeded}@example.com`, username: `remembered${seeded}`, password: 'correct horse battery' });
    return { user, token: await tokenFor(store, user.id) };
  };
  const profile = (token: string) => app.inject({ method: 'GET', url: '/api/profile', headers: bearer(token) });

  it('reads a token once: a change nobody is told of is not seen, the next one told is', async () => {
    // The notifications of the account's making may still be on their way (PostgreSQL tells them
    // after the commit) and forget the first read: a fresh account until one stays remembered.
    let remembered: Awaited<ReturnType<typeof signedIn>> | undefined;
    await vi.waitFor(
      async () => {
        const account = await signedIn();
        expect((await profile(account.token)).statusCode).toBe(200);
        // Suspended with the trigger off: no server hears of it, so the remembered record stands.
        await store.db.execute(sql`alter table users disable trigger users_notify_principals`);
        try {
          await store.db.update(users).set({ status: 'suspended' }).where(eq(users.id, account.user.id));
        } finally {
          await store.db.execute(sql`alter table users enable trigger users_notify_principals`);
        }
        expect((await profile(account.token)).statusCode).toBe(200);
        remembered = account;
      },
      { timeout: 10_000, interval: 200 },
    );
    // Any change told on `principals` forgets every token: the suspension counts from then on.
    await store.db.update(users).set({ updatedAt: new Date() }).where(eq(users.id, remembered!.user.id));
    await vi.waitFor(async () => expect((await profile(remembered!.token)).statusCode).toBe(401));
  });

  it('refuses a session ended straight in the database once the server hears of it', async () => {
    const { user, token } = await signedIn();
    expect((await profile(token)).statusCode).toBe(200);
    await store.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, user.id));
    await vi.waitFor(async () => expect((await profile(token)).statusCode).toBe(401));
  });

  it('refuses a token signed out through this server at the very next request, told or not', async () => {
    const { token } = await signedIn();
    expect((await profile(token)).statusCode).toBe(200);
    // The trigger off: only this server's own forgetting, before the answer leaves, can refuse it.
    await store.db.execute(sql`alter table sessions disable trigger sessions_notify_principals`);
    try {
      const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...bearer(token), 'idempotency-key': crypto.randomUUID() } });
      expect(out.statusCode).toBe(200);
    } finally {
      await store.db.execute(sql`alter table sessions enable trigger sessions_notify_principals`);
    }
    expect((await profile(token)).statusCode).toBe(401);
  });
});
