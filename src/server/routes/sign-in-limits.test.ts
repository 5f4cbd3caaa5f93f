// @vitest-environment node
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, browser, lastPin, signIn as signInWith, type Browser } from '../../../tests/support/auth';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { buildApp } from '../app';
import { translator } from '../http/i18n';
import { pinChallenges } from '../store/schema';
import { mailTexts } from '../mail/texts';

// Issue 17: "a limit that strangers can spend must not lock out the account's owner". The owner
// signs in from their own browser (address and cookie jar); the stranger calls from elsewhere.

const anna = { type: 'user' as const, email: 'anna@example.test', username: 'anna', password: 'correct horse 1' };
const ben = { type: 'user' as const, email: 'ben@example.test', username: 'ben', password: 'another secret 2' };
const en = translator('en');
const OWNER_IP = '198.51.100.10';
const STRANGER_IP = '203.0.113.66';

let opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.map((app) => app.close()));
  opened = [];
});

async function setup(kind: (typeof storeKinds)[number]) {
  let now = new Date('2026-11-25T09:00:00Z');
  const clock = { now: () => now, advance: (ms: number) => void (now = new Date(now.getTime() + ms)) };
  const test = await createTestApp({ kind, clock: clock.now });
  opened.push(test.app);
  const annaRow = await seedUser(test.store, anna);
  await seedUser(test.store, ben);
  const sent = test.mailer.sent;

  /** Password and mailed PIN from `from`; the session's token. */
  const signIn = (from: Browser, who: { email: string; password: string } = anna) => signInWith(test.app, sent, who, 'vitest', from);

  /** What a stranger does to spend the account's limits: wrong passwords until the 429 (at most 11). */
  async function guessPasswords(who: { email: string }, from = browser(test.app, STRANGER_IP)) {
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 11) statuses.push((await from.post('login', { emailOrUsername: who.email, password: `guess number ${statuses.length}` })).statusCode);
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  }

  const challenges = () => test.store.db.select().from(pinChallenges).where(eq(pinChallenges.userId, annaRow.id));
  return { ...test, clock, sent, signIn, guessPasswords, challenges, open: (ip: string, jar?: Map<string, string>) => browser(test.app, ip, jar) };
}

const minutes = (n: number) => n * 60_000;
const annaLogin = { emailOrUsername: anna.email, password: anna.password };

describe.each(storeKinds)('sign-in limits strangers cannot spend (%s)', (kind) => {
  it('lets the owner sign in from a known device after a stranger spent the account’s password guesses', async () => {
    const { open, signIn, guessPasswords, sent } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    await guessPasswords(anna);

    const mails = sent.length;
    const login = await laptop.post('login', annaLogin);
    expect(login.statusCode, login.body).toBe(200);
    expect(sent).toHaveLength(mails + 1);
    expect((await laptop.post('verify-pin', { emailOrUsername: anna.email, pin: lastPin(sent, anna.email) })).statusCode).toBe(200);
    // Known for Anna's account only: the same address without the cookie is an unknown device, still throttled.
    expect((await open(OWNER_IP).post('login', annaLogin)).statusCode).toBe(429);
  });

  it('keeps the sign-in PIN mail when strangers used up the reset mails', async () => {
    const { open, signIn, sent } = await setup(kind);
    const stranger = open(STRANGER_IP);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await stranger.post('forgot-password', { email: anna.email })).body);
    expect(new Set(answers).size).toBe(1);
    await expect.poll(() => sent.length).toBe(5);

    // A device never seen before: only the separate mail quotas let it through.
    await signIn(open(OWNER_IP));
    expect(sent).toHaveLength(6);
    expect(sent.at(-1)!.subject).toBe(en(mailTexts.pinMailSubject, { pin: lastPin(sent, anna.email) }));
  });

  it('lets the owner’s right PIN in after a stranger sent wrong ones, and never lets the stranger try the challenge', async () => {
    const { open, sent, challenges } = await setup(kind);
    const owner = open(OWNER_IP);
    expect((await owner.post('login', annaLogin)).statusCode).toBe(200);
    const pin = lastPin(sent, anna.email);
    const wrong = pin === '000000' ? '111111' : '000000';

    const stranger = open(STRANGER_IP);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await stranger.post('verify-pin', { emailOrUsername: anna.email, pin: wrong })).json());
    expect(answers.every((a) => a.message === messages.invalidPin.message)).toBe(true);
    // Not even the right PIN works without the sign-in it was mailed for, and it is not used up.
    expect((await stranger.post('verify-pin', { emailOrUsername: anna.email, pin })).statusCode).toBe(401);
    expect((await challenges()).map((c) => ({ attempts: c.attempts, consumed: c.consumedAt !== null }))).toEqual([{ attempts: 0, consumed: false }]);

    const verified = await owner.post('verify-pin', { emailOrUsername: anna.email, pin });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('lets the owner’s PIN through from an address a stranger has used up', async () => {
    const { open, sent } = await setup(kind);
    const owner = open(OWNER_IP);
    expect((await owner.post('login', annaLogin)).statusCode).toBe(200);
    // Behind the same NAT: the stranger spends the address's PIN guesses on many accounts.
    const stranger = open(OWNER_IP);
    let last = 0;
    for (let i = 0; i < 51; i++) last = (await stranger.post('verify-pin', { emailOrUsername: `user${i}@example.test`, pin: '123456' })).statusCode;
    expect(last).toBe(429);
    expect((await owner.post('verify-pin', { emailOrUsername: anna.email, pin: lastPin(sent, anna.email) })).statusCode).toBe(200);
  });

  it('still throttles the owner’s own wrong PINs: five kill the challenge', async () => {
    const { open, sent } = await setup(kind);
    const owner = open(OWNER_IP);
    await owner.post('login', annaLogin);
    const pin = lastPin(sent, anna.email);
    const wrong = pin === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await owner.post('verify-pin', { emailOrUsername: anna.email, pin: wrong })).json().message);
    expect(answers).toEqual([...Array<string>(4).fill(messages.invalidPin.message), messages.pinLocked.message]);
    expect((await owner.post('verify-pin', { emailOrUsername: anna.email, pin })).statusCode).toBe(401);
  });

  it('binds the PIN to the account’s own sign-in: another account’s attempt does not reach it', async () => {
    const { open, sent, challenges } = await setup(kind);
    const owner = open(OWNER_IP);
    await owner.post('login', annaLogin);
    const pin = lastPin(sent, anna.email);
    // Ben, who knows his own password, signs in and sends Anna's name with his attempt.
    const benBrowser = open(STRANGER_IP);
    await benBrowser.post('login', { emailOrUsername: ben.email, password: ben.password });
    for (let i = 0; i < 6; i++) expect((await benBrowser.post('verify-pin', { emailOrUsername: anna.email, pin: String(i).repeat(6) })).statusCode).toBe(401);
    expect((await challenges())[0]!.attempts).toBe(0);
    expect((await owner.post('verify-pin', { emailOrUsername: anna.email, pin })).statusCode).toBe(200);
  });

  it('still throttles a stranger and an unknown device per account and per address', async () => {
    const { open, guessPasswords, signIn } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    await guessPasswords(anna);
    // The stranger, the owner's new phone, and the stranger with the right password: all wait.
    expect((await open(STRANGER_IP).post('login', annaLogin)).statusCode).toBe(429);
    expect((await open('192.0.2.1').post('login', annaLogin)).statusCode).toBe(429);
    // One address trying many accounts stops at 50, known device or not for someone else.
    const stranger = open('192.0.2.99');
    let last = 0;
    for (let i = 0; i < 51; i++) last = (await stranger.post('login', { emailOrUsername: `user${i}@example.test`, password: 'guess' })).statusCode;
    expect(last).toBe(429);
    // Meanwhile the known device passes.
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(200);
  });

  it('throttles a known device on its own: a stolen cookie guesses no faster than a stranger', async () => {
    const { open, signIn, guessPasswords } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    await guessPasswords(anna, laptop);
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(429);
    // The account's own bucket was not spent by the device: a stranger's guesses still get their ten.
    expect((await open(STRANGER_IP).post('login', { emailOrUsername: anna.email, password: 'guess' })).statusCode).toBe(401);
  });

  it('does not count a cookie made for one account as known for another', async () => {
    const { open, signIn, guessPasswords } = await setup(kind);
    const annasLaptop = open(OWNER_IP);
    await signIn(annasLaptop);
    const bensPhone = open('192.0.2.7');
    await signIn(bensPhone, ben);
    await guessPasswords(anna);
    await guessPasswords(ben);

    expect((await annasLaptop.post('login', annaLogin)).statusCode).toBe(200);
    expect((await annasLaptop.post('login', { emailOrUsername: ben.email, password: ben.password })).statusCode).toBe(429);
    // Anna's cookie under the name Ben's device cookie has: still not Ben's device.
    const [bensName] = [...bensPhone.jar.keys()];
    const [annasValue] = [...annasLaptop.jar.values()];
    const swapped = open(OWNER_IP, new Map([[bensName!, annasValue!]]));
    expect((await swapped.post('login', { emailOrUsername: ben.email, password: ben.password })).statusCode).toBe(429);
    expect((await bensPhone.post('login', { emailOrUsername: ben.email, password: ben.password })).statusCode).toBe(200);
  });

  it('does not count a forged cookie', async () => {
    const { open, signIn, guessPasswords } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    await guessPasswords(anna);
    const [name, value] = [...laptop.jar.entries()][0]!;
    const flipped = `${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}`;
    for (const forged of [flipped, 'x'.repeat(value.length), '']) {
      expect((await open(OWNER_IP, new Map([[name, forged]])).post('login', annaLogin)).statusCode, forged).toBe(429);
    }
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(200);
  });

  it('renews the cookie at each sign-in, so a copy taken before stops counting', async () => {
    const { open, signIn, guessPasswords } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    const copy = open(STRANGER_IP, new Map(laptop.jar));
    await signIn(laptop);
    expect([...laptop.jar.values()]).not.toEqual([...copy.jar.values()]);
    await guessPasswords(anna);
    expect((await copy.post('login', annaLogin)).statusCode).toBe(429);
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(200);
  });

  it('answers a stranger alike for known and unknown names', async () => {
    const { open, signIn, clock } = await setup(kind);
    // Anna has a known device; the stranger's window starts after her sign-in's.
    await signIn(open(OWNER_IP));
    clock.advance(minutes(16));
    const stranger = open(STRANGER_IP);
    const ghost = { emailOrUsername: 'ghost@example.test' };
    for (let i = 0; i < 11; i++) {
      const known = await stranger.post('login', { emailOrUsername: anna.email, password: `guess ${i}` });
      const unknown = await stranger.post('login', { ...ghost, password: `guess ${i}` });
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      expect(unknown.headers['set-cookie']).toEqual(known.headers['set-cookie']);
    }
    const known = await stranger.post('verify-pin', { emailOrUsername: anna.email, pin: '123456' });
    const unknown = await stranger.post('verify-pin', { ...ghost, pin: '123456' });
    expect(known.statusCode).toBe(401);
    expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
  });

  it('forgets the devices at a password reset and knows the device that reset it', async () => {
    const { open, signIn, guessPasswords, sent } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    const phone = open('192.0.2.8');
    expect((await phone.post('forgot-password', { email: anna.email })).statusCode).toBe(200);
    await expect.poll(() => sent.length).toBe(2);
    const pin = lastPin(sent, anna.email);
    const { tempToken } = (await phone.post('verify-reset-pin', { email: anna.email, pin })).json().data;
    expect((await phone.post('reset-password', { tempToken, pin, newPassword: 'a new password' })).statusCode).toBe(200);

    await guessPasswords(anna);
    const newLogin = { emailOrUsername: anna.email, password: 'a new password' };
    expect((await laptop.post('login', newLogin)).statusCode).toBe(429);
    expect((await phone.post('login', newLogin)).statusCode).toBe(200);
  });

  it('forgets a device removed in the profile and, at a password change, every other one', async () => {
    const { app, open, signIn, guessPasswords } = await setup(kind);
    const laptop = open(OWNER_IP);
    const laptopToken = await signIn(laptop);
    const phone = open('192.0.2.8');
    await signIn(phone);
    const tablet = open('192.0.2.9');
    await signIn(tablet);
    const devices = (await app.inject({ url: '/api/profile/devices', headers: bearer(laptopToken) })).json().data as { _id: string; ip: string }[];
    const phoneSession = devices.find((d) => d.ip === '192.0.2.8')!;
    expect((await app.inject({ method: 'DELETE', url: `/api/profile/devices/${phoneSession._id}`, headers: bearer(laptopToken) })).statusCode).toBe(200);

    await guessPasswords(anna);
    expect((await phone.post('login', annaLogin)).statusCode).toBe(429);
    expect((await tablet.post('login', annaLogin)).statusCode).toBe(200);

    const changed = await app.inject({ method: 'PUT', url: '/api/profile/change-password', headers: bearer(laptopToken), payload: { currentPassword: anna.password, newPassword: 'changed password' } });
    expect(changed.statusCode).toBe(200);
    const newLogin = { emailOrUsername: anna.email, password: 'changed password' };
    expect((await tablet.post('login', newLogin)).statusCode).toBe(429);
    expect((await laptop.post('login', newLogin)).statusCode).toBe(200);
  });

  it('keeps knowing a device for a year after its last sign-in', async () => {
    const { open, signIn, guessPasswords, clock } = await setup(kind);
    const laptop = open(OWNER_IP);
    await signIn(laptop);
    clock.advance(minutes(60 * 24 * 364));
    await guessPasswords(anna);
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(200);
    clock.advance(minutes(60 * 24 * 2));
    await guessPasswords(anna, open('192.0.2.50'));
    expect((await laptop.post('login', annaLogin)).statusCode).toBe(429);
  });
});

describe.each(storeKinds)('sign-in cookies (%s)', (kind) => {
  it('are HttpOnly, SameSite=Strict, on /api/auth, and Secure over https', async () => {
    const { open, sent } = await setup(kind);
    const owner = open(OWNER_IP);
    const login = await owner.post('login', annaLogin);
    const attempt = login.cookies as Record<string, unknown>[];
    expect(attempt).toEqual([expect.objectContaining({ httpOnly: true, sameSite: 'Strict', path: '/api/auth', maxAge: 600 })]);
    expect(attempt[0]!.secure).toBeUndefined();
    const verified = await owner.post('verify-pin', { emailOrUsername: anna.email, pin: lastPin(sent, anna.email) });
    const cookies = verified.cookies as Record<string, unknown>[];
    // The attempt is spent; the device is known for a year.
    expect(cookies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: attempt[0]!.name, maxAge: 0 }),
        expect.objectContaining({ httpOnly: true, sameSite: 'Strict', path: '/api/auth', maxAge: 365 * 24 * 3600 }),
      ]),
    );
    expect(verified.body).not.toContain(String(cookies.find((c) => c.maxAge !== 0)!.value));

    const behindTls = await createTestApp({ kind, trustProxy: true });
    opened.push(behindTls.app);
    await seedUser(behindTls.store, anna);
    const res = await behindTls.app.inject({ method: 'POST', url: '/api/auth/login', payload: annaLogin, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.cookies).toEqual([expect.objectContaining({ secure: true })]);
  });

  it('travel to and from the configured origins of a cross-origin app', async () => {
    const app = await buildApp({ config: testAppConfig({ corsOrigins: ['https://admin.example'] }), store: await createTestStore(kind), mailer: memoryMailer(), logger: false });
    opened.push(app);
    const origin = 'https://admin.example';
    const preflight = await app.inject({ method: 'OPTIONS', url: '/api/auth/verify-pin', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin }, payload: annaLogin });
    expect(login.headers['access-control-allow-credentials']).toBe('true');
    // Any other origin is not allowed, credentials or not.
    const other = await app.inject({ method: 'OPTIONS', url: '/api/auth/login', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe.each(storeKinds)('mail quotas per purpose (%s)', (kind) => {
  it('counts sign-in PIN mails on their own: five an hour', async () => {
    const { open, sent, clock } = await setup(kind);
    const owner = open(OWNER_IP);
    for (let i = 0; i < 5; i++) expect((await owner.post('login', annaLogin)).statusCode).toBe(200);
    expect((await owner.post('login', annaLogin)).statusCode).toBe(429);
    expect(sent).toHaveLength(5);
    // The reset mail still goes out: it has its own quota.
    await open(STRANGER_IP).post('forgot-password', { email: anna.email });
    await expect.poll(() => sent.length).toBe(6);
    clock.advance(minutes(61));
    expect((await owner.post('login', annaLogin)).statusCode).toBe(200);
  });

  it('answers alike for an account over its reset quota', async () => {
    const { open } = await setup(kind);
    const stranger = open(STRANGER_IP);
    const bodies = [];
    for (let i = 0; i < 7; i++) bodies.push((await stranger.post('forgot-password', { email: anna.email })).body);
    bodies.push((await stranger.post('forgot-password', { email: 'ghost@example.test' })).body.replace('ghost@example.test', anna.email));
    expect(new Set(bodies).size).toBe(1);
  });
});
