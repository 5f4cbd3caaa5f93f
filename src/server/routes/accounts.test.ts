// @vitest-environment node
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, lastPin, signIn, tokenFor } from '../../../tests/support/auth';
import { CAST_PASSWORD, data, seedCast, sender, UNKNOWN_ID, type Cast } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { hashPassword } from '../auth/passwords';
import { sessions, users } from '../store/schema';

/*
 * Issue 10, the accounts an admin keeps (owners and partners under /api/users, admins under
 * /api/admins): each endpoint for the admin, invitations and resets by mailed PIN, the fields only
 * the server writes, suspension, and the rules that keep an admin in charge.
 */

const PASSWORD = 'chosen password 1';

const emails = (res: { json(): { data: { email: string }[] } }) => res.json().data.map((user) => user.email);
/** The link a PIN mail sends its reader to. */
const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);

describe.each(storeKinds)('accounts (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    const kiosk = (name: string, type: 'user' | 'partner', status: 'active' | 'suspended', firstName: string) =>
      seedUser(test.store, { type, email: `${name}@kiosk.example.test`, username: name, password: CAST_PASSWORD, status, firstName, lastName: 'Kiosk' });
    await kiosk('kiosk-1', 'user', 'active', 'Karl');
    await kiosk('kiosk-2', 'partner', 'active', 'Kira');
    await kiosk('kiosk-3', 'user', 'suspended', 'Kurt');
  });
  afterAll(() => test.app.close());

  const row = async (id: string) => (await test.store.db.select().from(users).where(eq(users.id, id)))[0]!;
  const mailsTo = (to: string) => test.mailer.sent.filter((mail) => mail.to === to);

  describe('owners and partners (/api/users)', () => {
    it('lists them with page, limit, status, search, type and sort; never admins or team members', async () => {
      const first = await send('admin', 'GET', '/api/users?search=kiosk&limit=2&page=1&sortBy=email');
      expect(first.statusCode).toBe(200);
      expect(emails(first)).toEqual(['kiosk-1@kiosk.example.test', 'kiosk-2@kiosk.example.test']);
      expect(first.json().pagination).toEqual({ currentPage: 1, totalPages: 2, totalItems: 3, itemsPerPage: 2 });
      expect(emails(await send('admin', 'GET', '/api/users?search=kiosk&limit=2&page=2&sortBy=email'))).toEqual(['kiosk-3@kiosk.example.test']);
      expect(emails(await send('admin', 'GET', '/api/users?search=KIOSK&sortBy=email&sortOrder=desc'))[0]).toBe('kiosk-3@kiosk.example.test');
      expect(emails(await send('admin', 'GET', '/api/users?search=kiosk&status=suspended'))).toEqual(['kiosk-3@kiosk.example.test']);
      expect(emails(await send('admin', 'GET', '/api/users?search=kiosk&type=partner'))).toEqual(['kiosk-2@kiosk.example.test']);
      expect(emails(await send('admin', 'GET', '/api/users?search=Kira'))).toEqual(['kiosk-2@kiosk.example.test']);
      expect((await send('admin', 'GET', '/api/users?status=gone')).statusCode).toBe(400);
      expect((await send('admin', 'GET', '/api/users?limit=1000')).statusCode).toBe(400);

      const everyone = emails(await send('admin', 'GET', '/api/users?limit=100'));
      expect(everyone).toEqual(expect.arrayContaining(['owner-a@example.test', 'owner-b@example.test', 'partner-p@example.test']));
      expect(everyone).not.toContain('admin@example.test');
      expect(everyone.filter((email) => /member|plain/.test(email))).toEqual([]);
      const stats = data(await send('admin', 'GET', '/api/users/stats'));
      expect(stats).toMatchObject({ total: everyone.length, by: { status: { suspended: 1 }, type: { partner: 2 } } });
    });

    it('reads one without any secret, and not an admin or team member through it', async () => {
      const res = await send('admin', 'GET', `/api/users/${cast.ids.ownerA}`);
      expect(res.statusCode).toBe(200);
      expect(data(res)).toMatchObject({ _id: cast.ids.ownerA, email: 'owner-a@example.test', type: 'user', status: 'active', verified: true });
      expect(res.body).not.toMatch(/password|argon/i);
      expect((await send('admin', 'GET', `/api/users/${cast.ids.admin}`)).statusCode).toBe(404);
      expect((await send('admin', 'GET', `/api/users/${cast.ids.memberA}`)).statusCode).toBe(404);
      expect((await send('admin', 'GET', `/api/admins/${cast.ids.ownerA}`)).statusCode).toBe(404);
      expect((await send('admin', 'GET', `/api/users/${UNKNOWN_ID}`)).statusCode).toBe(404);
    });

    it('creates an account and mails an invitation; the invited person chooses a password and signs in', async () => {
      const email = 'nora.neu@example.test';
      const res = await send('admin', 'POST', '/api/users', { email, firstName: 'Nora', lastName: 'Neu', type: 'partner' });
      expect(res.statusCode, res.body).toBe(201);
      const created = data(res);
      expect(created).toMatchObject({ email, firstName: 'Nora', type: 'partner', status: 'active', verified: false, username: 'nora.neu', language: 'en' });
      expect(res.body).not.toMatch(/password|argon|pin/i);

      const [invitation, ...more] = mailsTo(email);
      expect(more).toEqual([]);
      expect(invitation!.subject).toMatch(/account/i);
      const pin = lastPin(test.mailer.sent, email);
      expect(pin).toMatch(/^\d{6}$/);
      const link = linkIn(invitation!.text);
      expect(link.pathname).toBe('/forgot-password');
      expect(link.searchParams.get('email')).toBe(email);
      // Nobody else heard of it: no mail to the admin.
      expect(mailsTo('admin@example.test')).toEqual([]);

      // Through the real reset flow, with the mailed PIN.
      const verified = await test.app.inject({ method: 'POST', url: '/api/auth/verify-reset-pin', payload: { email, pin } });
      expect(verified.statusCode, verified.body).toBe(200);
      const reset = await test.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { tempToken: verified.json().data.tempToken, pin, newPassword: PASSWORD } });
      expect(reset.statusCode, reset.body).toBe(200);
      const token = await signIn(test.app, test.mailer.sent, { email, password: PASSWORD });
      const profile = await test.app.inject({ url: '/api/profile', headers: bearer(token) });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().data).toMatchObject({ email, type: 'partner' });
      expect(data(await send('admin', 'GET', `/api/users/${created._id}`)).verified).toBe(true);
    });

    it('refuses a taken email as a field error, creating nothing and mailing nobody', async () => {
      const mails = test.mailer.sent.length;
      const [before] = await test.store.db.select({ n: count() }).from(users);
      for (const email of ['OWNER-A@example.test', 'admin@example.test']) {
        const res = await send('admin', 'POST', '/api/users', { email });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual([{ path: 'body.email', message: messages.valueTaken.message }]);
      }
      const bad = await send('admin', 'POST', '/api/users', { email: 'not an address', type: 'admin' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.map((e: { path: string }) => e.path).toSorted()).toEqual(['body.email', 'body.type']);
      expect((await test.store.db.select({ n: count() }).from(users))[0]).toEqual(before);
      expect(test.mailer.sent.length).toBe(mails);
    });

    it('creates nothing when the invitation cannot be mailed (503)', async () => {
      const working = test.mailer.send;
      test.mailer.send = async () => {
        throw new Error('SMTP is down');
      };
      try {
        const res = await send('admin', 'POST', '/api/users', { email: 'unlucky@example.test' });
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe(messages.inviteMailFailed.message);
      } finally {
        test.mailer.send = working;
      }
      expect(await test.store.db.select().from(users).where(eq(users.email, 'unlucky@example.test'))).toEqual([]);
    });

    it('changes and deletes an account; one that still owns a website is refused, not a 500', async () => {
      const res = await send('admin', 'POST', '/api/users', { email: 'short.lived@example.test' });
      const created = data(res);
      const changed = await send('admin', 'PUT', `/api/users/${created._id}`, { firstName: 'Short', type: 'partner', username: '' }, 1);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(data(changed)).toMatchObject({ firstName: 'Short', type: 'partner', username: created.username, version: 2 });
      expect((await send('admin', 'DELETE', `/api/users/${created._id}`, undefined, 2)).statusCode).toBe(200);
      expect((await send('admin', 'GET', `/api/users/${created._id}`)).statusCode).toBe(404);

      const owner = data(await send('admin', 'GET', `/api/users/${cast.ids.ownerB}`));
      const inUse = await send('admin', 'DELETE', `/api/users/${cast.ids.ownerB}`, undefined, owner.version);
      expect(inUse.statusCode).toBe(400);
      expect(await row(cast.ids.ownerB)).toBeDefined();
    });

    it('never stores verified, a password hash or a role from a body, on create or on update', async () => {
      const knownHash = await hashPassword('i chose this one');
      const sneaky = { verified: true, passwordHash: knownHash, password: 'i chose this one', role: 'admin', websiteId: cast.site.A, teamRoleId: UNKNOWN_ID };
      for (const [url, email] of [
        ['/api/users', 'sneaky.owner@example.test'],
        ['/api/admins', 'sneaky.admin@example.test'],
      ] as const) {
        const res = await send('admin', 'POST', url, { email, ...sneaky });
        expect(res.statusCode, res.body).toBe(201);
        const id = data(res)._id;
        const stored = await row(id);
        expect(stored).toMatchObject({ verified: false, websiteId: null, teamRoleId: null });
        expect(stored.passwordHash).not.toBe(knownHash);
        expect(data(res)).not.toHaveProperty('role');
        const login = await test.app.inject({ method: 'POST', url: '/api/auth/login', payload: { emailOrUsername: email, password: 'i chose this one' } });
        expect(login.statusCode).toBe(401);

        const updated = await send('admin', 'PUT', `${url}/${id}`, { firstName: 'Sneaky', ...sneaky }, 1);
        expect(updated.statusCode, updated.body).toBe(200);
        expect(await row(id)).toMatchObject({ firstName: 'Sneaky', verified: false, passwordHash: stored.passwordHash, websiteId: null, teamRoleId: null, version: 2 });
      }
    });

    it('offers accounts to pick from by what is typed: owners and partners only', async () => {
      const res = await send('admin', 'GET', '/api/users/dropdown?search=kiosk');
      expect(res.statusCode).toBe(200);
      expect(emails(res)).toEqual(['kiosk-1@kiosk.example.test', 'kiosk-2@kiosk.example.test', 'kiosk-3@kiosk.example.test']);
      expect(Object.keys(data(res)[0]).toSorted()).toEqual(['_id', 'email', 'firstName', 'lastName', 'type']);
      expect(emails(await send('admin', 'GET', '/api/users/dropdown?search=Kira%20Kiosk'))).toEqual(['kiosk-2@kiosk.example.test']);
      expect(emails(await send('admin', 'GET', '/api/users/dropdown?search=kiosk&type=partner'))).toEqual(['kiosk-2@kiosk.example.test']);
      expect(emails(await send('admin', 'GET', '/api/users/dropdown?search=kiosk&limit=1'))).toHaveLength(1);
      // `%` is text, not a wildcard.
      expect(emails(await send('admin', 'GET', '/api/users/dropdown?search=%25'))).toEqual([]);
      const all = emails(await send('admin', 'GET', '/api/users/dropdown?limit=100'));
      expect(all).toContain('owner-a@example.test');
      expect(all.filter((email) => /^(admin|member|plain)/.test(email))).toEqual([]);
    });

    it('mails a reset PIN an admin asked for; the admin sees no password, and the person chooses one', async () => {
      const email = 'owner-b@example.test';
      const res = await send('admin', 'POST', `/api/users/${cast.ids.ownerB}/reset-password`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { email }, message: messages.resetMailed.message!.replace('{email}', email) });
      const mail = mailsTo(email).at(-1)!;
      const pin = lastPin(test.mailer.sent, email);
      expect(linkIn(mail.text).searchParams.get('email')).toBe(email);
      expect(mail.text).not.toContain(CAST_PASSWORD);
      // Until the person acts, the old password keeps working.
      expect((await test.app.inject({ method: 'POST', url: '/api/auth/login', payload: { emailOrUsername: email, password: CAST_PASSWORD } })).statusCode).toBe(200);

      const verified = await test.app.inject({ method: 'POST', url: '/api/auth/verify-reset-pin', payload: { email, pin } });
      expect(verified.statusCode, verified.body).toBe(200);
      const reset = await test.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { tempToken: verified.json().data.tempToken, pin, newPassword: PASSWORD } });
      expect(reset.statusCode).toBe(200);
      await signIn(test.app, test.mailer.sent, { email, password: PASSWORD });

      const mails = test.mailer.sent.length;
      for (const id of [cast.ids.admin, cast.ids.memberA, UNKNOWN_ID, 'not-a-uuid']) {
        expect((await send('admin', 'POST', `/api/users/${id}/reset-password`)).statusCode).toBe(404);
      }
      expect(test.mailer.sent.length).toBe(mails);
    });
  });

  describe('admins (/api/admins)', () => {
    it('creates, lists, counts, changes and deletes admins; owners never show up there', async () => {
      const email = 'second.admin@example.test';
      const res = await send('admin', 'POST', '/api/admins', { email, firstName: 'Sam' });
      expect(res.statusCode, res.body).toBe(201);
      const created = data(res);
      expect(created).toMatchObject({ email, type: 'admin', verified: false });
      expect(lastPin(test.mailer.sent, email)).toMatch(/^\d{6}$/);

      const listed = emails(await send('admin', 'GET', '/api/admins?limit=100'));
      expect(listed).toEqual(expect.arrayContaining(['admin@example.test', email]));
      expect(listed).not.toContain('owner-a@example.test');
      expect(emails(await send('admin', 'GET', '/api/admins?search=sam'))).toEqual([email]);
      expect(data(await send('admin', 'GET', '/api/admins/stats'))).toMatchObject({ total: listed.length, by: { status: { active: listed.length } } });
      expect(data(await send('admin', 'GET', `/api/admins/${created._id}`))).toEqual(created);

      const renamed = await send('admin', 'PUT', `/api/admins/${created._id}`, { lastName: 'Second' }, 1);
      expect(data(renamed)).toMatchObject({ lastName: 'Second', version: 2 });
      // Demoted: an owner from now on, found under /api/users.
      const demoted = await send('admin', 'PUT', `/api/admins/${created._id}`, { type: 'user' }, 2);
      expect(demoted.statusCode, demoted.body).toBe(200);
      expect((await send('admin', 'GET', `/api/admins/${created._id}`)).statusCode).toBe(404);
      expect(data(await send('admin', 'GET', `/api/users/${created._id}`)).type).toBe('user');
      expect((await send('admin', 'DELETE', `/api/users/${created._id}`, undefined, 3)).statusCode).toBe(200);
      expect(await test.store.db.select().from(users).where(eq(users.id, created._id))).toEqual([]);
    });

    it('refuses an admin deleting, suspending or demoting themselves (400), and changes nothing', async () => {
      const before = await row(cast.ids.admin);
      const own = `/api/admins/${cast.ids.admin}`;
      for (const [method, body] of [
        ['PUT', { status: 'suspended' }],
        ['PUT', { type: 'user' }],
        ['PUT', { type: 'partner', status: 'suspended' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await send('admin', method, own, body, before.version);
        expect(`${method} ${JSON.stringify(body)} → ${res.statusCode}`).toBe(`${method} ${JSON.stringify(body)} → 400`);
        expect(res.json().message).toBe(messages.ownAdminStanding.message);
      }
      expect(await row(cast.ids.admin)).toEqual(before);
      // Their own sessions were not touched by the refused suspension.
      expect((await send('admin', 'GET', own)).statusCode).toBe(200);
      // Changing their own name is fine.
      expect((await send('admin', 'PUT', own, { firstName: 'Ada L.' }, before.version)).statusCode).toBe(200);
    });
  });

  describe('suspension', () => {
    it('ends a suspended account’s sessions at once, and they stay ended after reactivation', async () => {
      const person = await seedUser(test.store, { type: 'partner', email: 'to.suspend@example.test', username: 'to-suspend', password: CAST_PASSWORD });
      const token = await signIn(test.app, test.mailer.sent, { email: 'to.suspend@example.test', password: CAST_PASSWORD });
      const direct = await tokenFor(test.store, person.id);
      const me = (t: string) => test.app.inject({ url: '/api/websites/my-websites', headers: bearer(t) });
      expect((await me(token)).statusCode).toBe(200);
      expect((await me(direct)).statusCode).toBe(200);

      const suspended = await send('admin', 'PUT', `/api/users/${person.id}`, { status: 'suspended' }, 1);
      expect(suspended.statusCode, suspended.body).toBe(200);
      expect((await me(token)).statusCode).toBe(401);
      expect((await me(direct)).statusCode).toBe(401);
      const open = await test.store.db.select().from(sessions).where(and(eq(sessions.userId, person.id), sql`${sessions.revokedAt} is null`));
      expect(open).toEqual([]);
      // Signing in is refused while suspended.
      const login = await test.app.inject({ method: 'POST', url: '/api/auth/login', payload: { emailOrUsername: 'to.suspend@example.test', password: CAST_PASSWORD } });
      expect(login.statusCode).toBe(403);

      expect((await send('admin', 'PUT', `/api/users/${person.id}`, { status: 'active' }, 2)).statusCode).toBe(200);
      expect((await me(token)).statusCode).toBe(401);
      expect((await me(direct)).statusCode).toBe(401);
      const again = await signIn(test.app, test.mailer.sent, { email: 'to.suspend@example.test', password: CAST_PASSWORD });
      expect((await me(again)).statusCode).toBe(200);
    });

    it('ends a suspended admin’s sessions too', async () => {
      const other = await seedUser(test.store, { type: 'admin', email: 'admin.two@example.test', username: 'admin-two', password: CAST_PASSWORD });
      const token = bearer(await tokenFor(test.store, other.id));
      expect((await test.app.inject({ url: '/api/admins', headers: token })).statusCode).toBe(200);
      expect((await send('admin', 'PUT', `/api/admins/${other.id}`, { status: 'suspended' }, 1)).statusCode).toBe(200);
      expect((await test.app.inject({ url: '/api/admins', headers: token })).statusCode).toBe(401);
    });
  });
});

/** The lock accounts.ts takes before counting active admins (ADMIN_LOCK). */
const ADMIN_LOCK = 7_110_001;

describe.each(storeKinds)('the last admin (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  const admins: { id: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    test = await createTestApp({ kind });
  });
  afterAll(() => test.app.close());

  /** Exactly two active admins, and no other. */
  async function twoAdmins(tag: string) {
    await test.store.db.update(users).set({ status: 'suspended' }).where(eq(users.type, 'admin'));
    admins.splice(0);
    for (const name of ['one', 'two']) {
      const user = await seedUser(test.store, { type: 'admin', email: `${name}.${tag}@example.test`, username: `${name}-${tag}`, password: CAST_PASSWORD });
      admins.push({ id: user.id, headers: bearer(await tokenFor(test.store, user.id)) });
    }
    return admins as [(typeof admins)[0], (typeof admins)[0]];
  }
  const activeAdmins = async () => (await test.store.db.select({ n: count() }).from(users).where(and(eq(users.type, 'admin'), eq(users.status, 'active'))))[0]!.n;
  const remove = (by: { headers: Record<string, string> }, whom: { id: string }, how: 'suspend' | 'demote' | 'delete') =>
    test.app.inject({
      method: how === 'delete' ? 'DELETE' : 'PUT',
      url: `/api/admins/${whom.id}`,
      payload: how === 'suspend' ? { status: 'suspended' } : how === 'demote' ? { type: 'user' } : undefined,
      headers: { ...by.headers, 'if-match': '"1"' },
    });

  it.each(['suspend', 'demote', 'delete'] as const)('leaves an admin when two %s each other at once', async (how) => {
    const [one, two] = await twoAdmins(`${how}-race`);
    const results = await Promise.all([remove(one, two, how), remove(two, one, how)]);
    const [won, lost] = results.map((res) => res.statusCode).toSorted((a, b) => a - b);
    // One wins; the other is refused: as the last admin (400) or, if it came later, as no admin any more (401, 403).
    expect(won).toBe(200);
    expect([400, 401, 403]).toContain(lost);
    expect(await activeAdmins()).toBe(1);
  });

  it.runIf(kind === 'postgres').each(['suspend', 'demote', 'delete'] as const)(
    'refuses the removal that would leave no active admin, when both got past every check but the count (%s)',
    async (how) => {
      const [one, two] = await twoAdmins(`${how}-lock`);
      let results: Promise<Awaited<ReturnType<typeof remove>>[]> | undefined;
      // Holding the admins' lock, both requests run up to it and wait there; then they go one at a time.
      await test.store.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK})`);
        results = Promise.all([remove(one, two, how), remove(two, one, how)]);
        const deadline = Date.now() + 10_000;
        for (;;) {
          const waiting = sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
          const { rows } = (await test.store.db.execute(waiting)) as unknown as { rows: { n: number }[] };
          if (rows[0]?.n === 2) break;
          if (Date.now() > deadline) throw new Error('the two removals never waited for the admins’ lock');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
      const answers = await results!;
      expect(answers.map((res) => res.statusCode).toSorted((a, b) => a - b)).toEqual([200, 400]);
      expect(answers.find((res) => res.statusCode === 400)!.json().message).toBe(messages.lastAdmin.message);
      expect(await activeAdmins()).toBe(1);
    },
  );
});
