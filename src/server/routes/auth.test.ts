// @vitest-environment node
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, browser, lastPin, signIn } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { z } from 'zod/mini';
import { AuthUserSchema } from '../../contract/auth';
import { messages } from '../../contract/messages';
import { translator } from '../http/i18n';
import { appSettings, pinChallenges, users } from '../store/schema';
import { mailTexts } from '../mail/texts';

const de = translator('de');
const anna = { type: 'user' as const, email: 'anna@example.test', username: 'anna', password: 'correct horse 1', firstName: 'Anna' };

let opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.map((app) => app.close()));
  opened = [];
});

async function setup(kind: (typeof storeKinds)[number]) {
  let now = new Date('2026-03-01T09:00:00Z');
  const clock = { now: () => now, advance: (ms: number) => void (now = new Date(now.getTime() + ms)) };
  const test = await createTestApp({ kind, clock: clock.now });
  opened.push(test.app);
  const user = await seedUser(test.store, anna);
  // One browser: the sign-in attempt's cookie goes from the password step to the PIN step.
  const { post } = browser(test.app);
  return { ...test, clock, user, post, sent: test.mailer.sent };
}

const minutes = (n: number) => n * 60_000;
const days = (n: number) => n * 24 * 3600_000;

describe.each(storeKinds)('sign-in (%s)', (kind) => {
  it('mails a PIN to the stored address, in the user language, after the right password', async () => {
    const { post, sent, store, user } = await setup(kind);
    await store.db.update(users).set({ language: 'de' }).where(eq(users.id, user.id));
    const res = await post('login', { emailOrUsername: 'ANNA', password: anna.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { emailOrUsername: 'ANNA', pinExpiresInSeconds: 600 } });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('anna@example.test');
    const pin = lastPin(sent, 'anna@example.test');
    expect(sent[0]!.subject).toBe(de(mailTexts.pinMailSubject, { pin }));
    const [challenge] = await store.db.select().from(pinChallenges);
    expect(challenge!.pinHash).not.toContain(pin);
  });

  it('names the white-labelled product in the PIN mail', async () => {
    const { post, sent, store } = await setup(kind);
    await store.db.update(appSettings).set({ cmsName: 'Agentur Nord', mailFrom: 'Agentur Nord <post@nord.example>' });
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    expect(sent[0]!.text).toContain('Agentur Nord');
    expect(sent[0]!.text).toContain('Anna');
    // The settings' sender, not the server's MAIL_FROM.
    expect(sent[0]!.from).toBe('Agentur Nord <post@nord.example>');
  });

  it('answers an unknown user exactly like a wrong password', async () => {
    const { post, sent } = await setup(kind);
    const unknown = await post('login', { emailOrUsername: 'nobody@example.test', password: anna.password });
    const wrong = await post('login', { emailOrUsername: anna.email, password: 'wrong password' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(sent).toHaveLength(0);
  });

  it('refuses a suspended account even with the right password', async () => {
    const { post, store, user } = await setup(kind);
    await store.db.update(users).set({ status: 'suspended' }).where(eq(users.id, user.id));
    expect((await post('login', { emailOrUsername: anna.email, password: anna.password })).statusCode).toBe(403);
  });

  it('opens a session for the right PIN, once, and marks the account verified', async () => {
    const { post, sent, store, user, app } = await setup(kind);
    await store.db.update(users).set({ verified: false }).where(eq(users.id, user.id));
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    const pin = lastPin(sent, anna.email);
    const res = await post('verify-pin', { emailOrUsername: 'anna', pin });
    expect(res.statusCode).toBe(200);
    const { token, user: body, type } = res.json().data;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(type).toBe('user');
    expect(z.strictObject(AuthUserSchema.shape).parse(body)).toMatchObject({ _id: user.id, verified: true, role: null, roleInfo: null });
    expect(res.body).not.toContain('argon2');
    expect((await app.inject({ url: '/api/profile', headers: bearer(token) })).statusCode).toBe(200);
    expect((await post('verify-pin', { emailOrUsername: anna.email, pin })).statusCode).toBe(401);
  });

  it('issues a fresh token at every sign-in', async () => {
    const { app, sent } = await setup(kind);
    const first = await signIn(app, sent, anna);
    const second = await signIn(app, sent, anna);
    expect(first).not.toBe(second);
  });

  it('lets a PIN expire after 10 minutes', async () => {
    const { post, sent, clock } = await setup(kind);
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    clock.advance(minutes(10) + 1000);
    const res = await post('verify-pin', { emailOrUsername: anna.email, pin: lastPin(sent, anna.email) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(messages.invalidPin.message);
  });

  it('kills the PIN after 5 wrong tries, so the right one fails too', async () => {
    const { post, sent } = await setup(kind);
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    const pin = lastPin(sent, anna.email);
    const wrongPin = pin === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await post('verify-pin', { emailOrUsername: anna.email, pin: wrongPin })).json().message);
    expect(answers.slice(0, 4).every((m) => m === messages.invalidPin.message)).toBe(true);
    expect(answers[4]).toBe(messages.pinLocked.message);
    expect((await post('verify-pin', { emailOrUsername: anna.email, pin })).statusCode).toBe(401);
  });

  it('kills the previous PIN when a new one is mailed, so locking the new one leaves nothing open', async () => {
    const { post, sent } = await setup(kind);
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    const old = lastPin(sent, anna.email);
    await post('login', { emailOrUsername: anna.email, password: anna.password });
    const fresh = lastPin(sent, anna.email);
    const wrong = ['000000', '111111', '222222'].find((p) => p !== old && p !== fresh)!;
    for (let i = 0; i < 5; i++) await post('verify-pin', { emailOrUsername: anna.email, pin: wrong });
    // Were the old challenge still open, it would answer once the new one is locked.
    expect((await post('verify-pin', { emailOrUsername: anna.email, pin: old })).statusCode).toBe(401);
    expect((await post('verify-pin', { emailOrUsername: anna.email, pin: fresh })).statusCode).toBe(401);
  });

  it('returns the role and its permissions for a team member', async () => {
    const { app, store, sent, post } = await setup(kind);
    const role = { name: 'Editor', permissions: { cms: true, seo: false, team: false, settings: true }, cmsPermissions: { pages: 'edit' as const } };
    const member = await seedUser(store, { type: 'teammember', email: 'tm@example.test', username: 'tm', password: 'team member pw', role });
    await post('login', { emailOrUsername: 'tm', password: 'team member pw' });
    const res = await post('verify-pin', { emailOrUsername: 'tm', pin: lastPin(sent, 'tm@example.test') });
    expect(res.json().data).toMatchObject({
      type: 'teammember',
      user: { role: 'Editor', websiteId: member.websiteId, roleInfo: { permissions: role.permissions, cmsPermissions: role.cmsPermissions } },
    });
    // The profile shows the same user, role included, as sign-in did.
    expect((await profile(app, res.json().data.token)).json().data).toEqual(res.json().data.user);
  });
});

const profile = (app: Awaited<ReturnType<typeof setup>>['app'], token: string) => app.inject({ url: '/api/profile', headers: bearer(token) });

describe.each(storeKinds)('sessions (%s)', (kind) => {
  it('ends with logout', async () => {
    const { app, sent, post } = await setup(kind);
    const token = await signIn(app, sent, anna);
    expect((await post('logout', {}, bearer(token))).statusCode).toBe(200);
    expect((await profile(app, token)).statusCode).toBe(401);
  });

  it('ends after 7 days idle', async () => {
    const { app, sent, clock } = await setup(kind);
    const token = await signIn(app, sent, anna);
    clock.advance(days(6));
    expect((await profile(app, token)).statusCode).toBe(200);
    clock.advance(days(7) - 1000);
    expect((await profile(app, token)).statusCode).toBe(200);
    clock.advance(days(7) + 1000);
    expect((await profile(app, token)).statusCode).toBe(401);
  });

  it('ends after 30 days however active', async () => {
    const { app, sent, clock } = await setup(kind);
    const token = await signIn(app, sent, anna);
    for (let day = 1; day < 30; day++) {
      clock.advance(days(1));
      expect((await profile(app, token)).statusCode).toBe(200);
    }
    clock.advance(days(1));
    expect((await profile(app, token)).statusCode).toBe(401);
  });

  it('ends when the user is suspended', async () => {
    const { app, sent, store, user } = await setup(kind);
    const token = await signIn(app, sent, anna);
    await store.db.update(users).set({ status: 'suspended' }).where(eq(users.id, user.id));
    expect((await profile(app, token)).statusCode).toBe(401);
  });

  it('answers 401 to a missing or made-up token before looking at the body', async () => {
    const { app } = await setup(kind);
    expect((await app.inject({ url: '/api/profile' })).statusCode).toBe(401);
    expect((await profile(app, 'x'.repeat(43))).statusCode).toBe(401);
    const res = await app.inject({ method: 'PUT', url: '/api/profile', payload: { language: 'klingon' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: messages.unauthenticated.message });
  });
});

describe.each(storeKinds)('password reset (%s)', (kind) => {
  it('answers alike for known and unknown emails and mails only the stored address', async () => {
    const { post, sent } = await setup(kind);
    const known = await post('forgot-password', { email: ' Anna@Example.TEST ' });
    const unknown = await post('forgot-password', { email: 'ghost@example.test' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json().message).toBe(unknown.json().message);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]!.to).toBe('anna@example.test');
  });

  it('resets the password with the PIN and its temporary token, once, and signs out everywhere', async () => {
    const { app, post, sent, store, user } = await setup(kind);
    const token = await signIn(app, sent, anna);
    await post('forgot-password', { email: anna.email });
    await expect.poll(() => sent.length).toBe(2);
    const pin = lastPin(sent, anna.email);
    const verified = await post('verify-reset-pin', { email: anna.email, pin });
    expect(verified.statusCode).toBe(200);
    const { tempToken } = verified.json().data;
    // The PIN was spent on the token: it cannot fetch a second one.
    expect((await post('verify-reset-pin', { email: anna.email, pin })).statusCode).toBe(401);

    const wrongPin = pin === '000000' ? '111111' : '000000';
    expect((await post('reset-password', { tempToken, pin: wrongPin, newPassword: 'a new password' })).statusCode).toBe(401);
    const reset = await post('reset-password', { tempToken, pin, newPassword: 'a new password' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data).toEqual({ passwordReset: true });
    expect((await post('reset-password', { tempToken, pin, newPassword: 'another one!' })).statusCode).toBe(401);

    const [row] = await store.db.select().from(users).where(eq(users.id, user.id));
    expect(await verify(row!.passwordHash, 'a new password')).toBe(true);
    expect((await app.inject({ url: '/api/profile', headers: bearer(token) })).statusCode).toBe(401);
    expect((await post('login', { emailOrUsername: anna.email, password: anna.password })).statusCode).toBe(401);
  });

  it('lets the temporary token expire after 15 minutes', async () => {
    const { post, sent, clock } = await setup(kind);
    await post('forgot-password', { email: anna.email });
    await expect.poll(() => sent.length).toBe(1);
    const pin = lastPin(sent, anna.email);
    const { tempToken } = (await post('verify-reset-pin', { email: anna.email, pin })).json().data;
    clock.advance(minutes(15) + 1000);
    expect((await post('reset-password', { tempToken, pin, newPassword: 'a new password' })).statusCode).toBe(401);
  });

  it('rejects a weak new password with a field error', async () => {
    const { post } = await setup(kind);
    const res = await post('reset-password', { tempToken: 'x', pin: '123456', newPassword: 'short' }, { 'accept-language': 'de' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.newPassword', message: de(messages.passwordTooShort) }]);
  });
});

describe.each(storeKinds)('rate limits (%s)', (kind) => {
  it('stops guessing one account however the body and X-Forwarded-For vary', async () => {
    const { post } = await setup(kind);
    const spellings = [anna.email, 'ANNA@example.test', 'anna', ' Anna '];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post('login', { emailOrUsername: spellings[i % 4]!, password: `guess ${i}` }, { 'x-forwarded-for': `10.0.0.${i}`, 'accept-language': 'de' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().message).toBe(de(messages.tooManyRequests));
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The right password does not get through the limit either.
    expect((await post('login', { emailOrUsername: anna.email, password: anna.password })).statusCode).toBe(429);
  });

  it('stops one address however many accounts it tries, and forgets after the window', async () => {
    const { post, clock } = await setup(kind);
    let last = 0;
    for (let i = 0; i < 51; i++) {
      last = (await post('verify-pin', { emailOrUsername: `user${i}@example.test`, pin: '123456' }, { 'x-forwarded-for': `10.1.0.${i}` })).statusCode;
    }
    expect(last).toBe(429);
    clock.advance(minutes(15) + 1000);
    expect((await post('verify-pin', { emailOrUsername: 'someone@example.test', pin: '123456' })).statusCode).toBe(401);
  });

  it('limits forgot-password, verify-reset-pin and reset-password per address', async () => {
    const { post } = await setup(kind);
    // A different account every time: only the per-address limit can stop these.
    const calls: [string, (i: number) => object][] = [
      ['forgot-password', (i) => ({ email: `ghost${i}@example.test` })],
      ['verify-reset-pin', (i) => ({ email: `ghost${i}@example.test`, pin: '123456' })],
      ['reset-password', (i) => ({ tempToken: `nope-${i}`, pin: '123456', newPassword: 'long enough password' })],
    ];
    for (const [url, body] of calls) {
      const statuses: number[] = [];
      for (let i = 0; i < 51; i++) statuses.push((await post(url, body(i), { 'x-forwarded-for': `10.2.0.${i}` })).statusCode);
      expect(statuses.at(-1), url).toBe(429);
      expect(statuses.slice(0, 10).includes(429), url).toBe(false);
    }
  });
});
