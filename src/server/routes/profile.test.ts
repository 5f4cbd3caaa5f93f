// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, signIn as signInWith } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';

const anna = { type: 'partner' as const, email: 'anna@example.test', username: 'anna', password: 'correct horse 1' };
const ben = { type: 'user' as const, email: 'ben@example.test', username: 'ben', password: 'another secret 2' };
const firefoxOnAndroid = 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0';
const chromeOnMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

let opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.map((app) => app.close()));
  opened = [];
});

async function setup(kind: (typeof storeKinds)[number]) {
  const test = await createTestApp({ kind });
  opened.push(test.app);
  await seedUser(test.store, anna);
  await seedUser(test.store, ben);
  const as = (token: string) => ({
    get: (url: string) => test.app.inject({ url, headers: bearer(token) }),
    put: (url: string, payload: object) => test.app.inject({ method: 'PUT', url, payload, headers: bearer(token) }),
    del: (url: string) => test.app.inject({ method: 'DELETE', url, headers: bearer(token) }),
  });
  return { ...test, as, signIn: (u: typeof anna | typeof ben, ua?: string) => signInWith(test.app, test.mailer.sent, u, ua) };
}

describe.each(storeKinds)('profile (%s)', (kind) => {
  it('changes names, username and language but never type, role, verified or status', async () => {
    const { as, signIn } = await setup(kind);
    const me = as(await signIn(anna));
    const res = await me.put('/api/profile', {
      firstName: ' Anna ',
      lastName: 'Berg',
      username: 'anna.berg',
      language: 'de',
      type: 'admin',
      role: 'admin',
      verified: false,
      status: 'suspended',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ firstName: 'Anna', lastName: 'Berg', username: 'anna.berg', language: 'de', type: 'partner', role: null, verified: true, status: 'active' });
    expect((await me.get('/api/profile')).json().data.language).toBe('de');
  });

  it('refuses a username that is taken, in any case', async () => {
    const { as, signIn } = await setup(kind);
    const res = await as(await signIn(anna)).put('/api/profile', { username: 'BEN' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: messages.usernameTaken.message, errors: [{ path: 'body.username' }] });
  });

  it('rejects an unknown language with a field error', async () => {
    const { as, signIn } = await setup(kind);
    const res = await as(await signIn(anna)).put('/api/profile', { language: 'fr' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.language');
  });
});

describe.each(storeKinds)('change password (%s)', (kind) => {
  it('needs the current password', async () => {
    const { as, signIn } = await setup(kind);
    const res = await as(await signIn(anna)).put('/api/profile/change-password', { currentPassword: 'wrong', newPassword: 'a brand new one' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: messages.wrongCurrentPassword.message,
      errors: [{ path: 'body.currentPassword', message: messages.wrongCurrentPassword.message }],
    });
  });

  it('signs out the other devices and keeps this one', async () => {
    const { as, signIn, app } = await setup(kind);
    const phone = await signIn(anna, firefoxOnAndroid);
    const laptop = await signIn(anna, chromeOnMac);
    const res = await as(laptop).put('/api/profile/change-password', { currentPassword: anna.password, newPassword: 'a brand new one' });
    expect(res.statusCode).toBe(200);
    expect((await as(laptop).get('/api/profile')).statusCode).toBe(200);
    expect((await as(phone).get('/api/profile')).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { emailOrUsername: 'anna', password: 'a brand new one' } });
    expect(login.statusCode).toBe(200);
  });
});

describe.each(storeKinds)('devices (%s)', (kind) => {
  it('lists every live session with its device and marks the current one', async () => {
    const { as, signIn } = await setup(kind);
    await signIn(anna, firefoxOnAndroid);
    const laptop = await signIn(anna, chromeOnMac);
    await signIn(ben, chromeOnMac);
    const res = await as(laptop).get('/api/profile/devices');
    expect(res.statusCode).toBe(200);
    const devices = res.json().data as { device: string; current: boolean; ip: string }[];
    expect(devices.map((d) => d.device).toSorted()).toEqual(['Chrome on macOS', 'Firefox on Android']);
    expect(devices.filter((d) => d.current).map((d) => d.device)).toEqual(['Chrome on macOS']);
    expect(devices[0]!.ip).toBe('127.0.0.1');
  });

  it('signs out a device, and answers 404 for another user’s session', async () => {
    const { as, signIn } = await setup(kind);
    const phone = await signIn(anna, firefoxOnAndroid);
    const laptop = await signIn(anna, chromeOnMac);
    const bens = await signIn(ben, chromeOnMac);
    const phoneId = (await as(laptop).get('/api/profile/devices')).json().data.find((d: { current: boolean }) => !d.current)._id;
    const bensId = (await as(bens).get('/api/profile/devices')).json().data[0]._id;

    expect((await as(laptop).del(`/api/profile/devices/${bensId}`)).statusCode).toBe(404);
    expect((await as(bens).get('/api/profile')).statusCode).toBe(200);
    expect((await as(laptop).del(`/api/profile/devices/${phoneId}`)).statusCode).toBe(200);
    expect((await as(phone).get('/api/profile')).statusCode).toBe(401);
    expect((await as(laptop).get('/api/profile')).statusCode).toBe(200);
  });
});
