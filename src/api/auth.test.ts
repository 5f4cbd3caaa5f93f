import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout, requestPasswordReset, resetPassword, verifyPin, verifyResetPin } from './auth';
import { ApiError } from './request';
import { wireUser } from './user.test-support';

const fetchMock = vi.fn<typeof fetch>();

function respond(body: unknown, status = 200) {
  fetchMock.mockImplementation(async () => new Response(JSON.stringify(body), { status }));
}

function sent(): { url: unknown; method: unknown; body: unknown; headers: Headers } {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(String(init?.body ?? 'null')), headers: new Headers(init?.headers) };
}

const AUTH_USER = wireUser({ language: 'de' });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  localStorage.clear();
});

describe('auth calls', () => {
  it('login posts the credentials and returns where the PIN went', async () => {
    respond({ success: true, data: { emailOrUsername: 'ada', pinExpiresInSeconds: 600 } });

    await expect(login({ emailOrUsername: 'ada', password: 'pw' })).resolves.toEqual({ emailOrUsername: 'ada', pinExpiresInSeconds: 600 });
    expect(sent()).toMatchObject({ url: '/api/auth/login', method: 'POST', body: { emailOrUsername: 'ada', password: 'pw' } });
  });

  it('verifyPin returns the token and the user with id for _id and the type from the response', async () => {
    respond({ success: true, data: { token: 'tok-1', user: AUTH_USER, type: 'partner' } });

    const { token, user } = await verifyPin({ emailOrUsername: 'ada', pin: '123456' });
    expect(token).toBe('tok-1');
    expect(user).toMatchObject({ id: AUTH_USER._id, type: 'partner', language: 'de' });
    expect(user).not.toHaveProperty('_id');
    expect(sent()).toMatchObject({ url: '/api/auth/verify-pin', body: { emailOrUsername: 'ada', pin: '123456' } });
  });

  it('logout sends the token it is given, whatever is stored', async () => {
    respond({ success: true, data: null });

    await logout('tok-1');
    expect(sent()).toMatchObject({ url: '/api/auth/logout', method: 'POST', body: null });
    expect(sent().headers.get('Authorization')).toBe('Bearer tok-1');
  });

  it('verifyResetPin returns the temporary token; resetPassword sends it with the PIN', async () => {
    respond({ success: true, data: { tempToken: 'temp-1' } });
    await expect(verifyResetPin({ email: 'ada@example.com', pin: '654321' })).resolves.toBe('temp-1');

    fetchMock.mockClear();
    respond({ success: true, data: { passwordReset: true } });
    await resetPassword({ tempToken: 'temp-1', pin: '654321', newPassword: 'new-secret-pw' });
    expect(sent()).toMatchObject({
      url: '/api/auth/reset-password',
      body: { tempToken: 'temp-1', pin: '654321', newPassword: 'new-secret-pw' },
    });
  });

  // ADR 017: the sign-in cookies (the attempt, the known device) must travel to an API on another origin of the site too.
  it('sends the calls that carry sign-in cookies with credentials', async () => {
    const calls: [string, () => Promise<unknown>, unknown][] = [
      ['login', () => login({ emailOrUsername: 'ada', password: 'pw' }), { emailOrUsername: 'ada', pinExpiresInSeconds: 600 }],
      ['verifyPin', () => verifyPin({ emailOrUsername: 'ada', pin: '123456' }), { token: 'tok-1', user: AUTH_USER, type: 'user' }],
      ['resetPassword', () => resetPassword({ tempToken: 't', pin: '123456', newPassword: 'new-secret-pw' }), { passwordReset: true }],
    ];
    for (const [name, call, data] of calls) {
      fetchMock.mockClear();
      respond({ success: true, data });
      await call();
      expect(fetchMock.mock.calls[0]?.[1]?.credentials, name).toBe('include');
    }
  });

  // Spec §5: success plus data, otherwise the call's fixed message; the server's own message wins.
  it.each([
    ['login', () => login({ emailOrUsername: 'ada', password: 'pw' }), 'Login failed'],
    ['verifyPin', () => verifyPin({ emailOrUsername: 'ada', pin: '123456' }), 'PIN verification failed'],
    ['requestPasswordReset', () => requestPasswordReset({ email: 'ada@example.com' }), 'Password reset request failed'],
    ['verifyResetPin', () => verifyResetPin({ email: 'ada@example.com', pin: '123456' }), 'PIN verification failed'],
    ['resetPassword', () => resetPassword({ tempToken: 't', pin: '123456', newPassword: 'new-secret-pw' }), 'Password reset failed'],
  ])('%s fails with "%s" unless the server names the reason', async (_name, call, fixed) => {
    for (const [body, status] of [
      [{ success: true, data: null }, 200],
      [{ success: false }, 200],
      [{ success: false }, 500],
    ] as const) {
      respond(body, status);
      const error: unknown = await call().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe(fixed);
    }

    respond({ success: false, message: 'Too many attempts.' }, 429);
    await expect(call()).rejects.toThrow('Too many attempts.');
  });
});
