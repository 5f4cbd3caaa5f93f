import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth } from './auth';
import { clearSession, readPendingUser, readResetTicket, readSession, savePendingUser, saveSession, useSession } from '../api/session';
import { ADA, wireUser } from '../api/user.test-support';

const fetchMock = vi.fn<typeof fetch>();

const USER = ADA;
const AUTH_USER = wireUser();

/** Answers by path, in the order given per path. */
function serve(routes: Record<string, Array<[unknown, number?]>>) {
  fetchMock.mockImplementation(async (url) => {
    const answer = routes[String(url)]?.shift();
    if (!answer) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer[0]), { status: answer[1] ?? 200 });
  });
}

function bodyOf(path: string): unknown {
  const call = fetchMock.mock.calls.find(([url]) => url === path);
  return JSON.parse(String(call?.[1]?.body ?? 'null'));
}

const wrapper = ({ children }: { children: ReactNode }) => <AuthProvider>{children}</AuthProvider>;

function renderAuth() {
  return renderHook(() => ({ auth: useAuth(), session: useSession() }), { wrapper });
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  localStorage.clear();
  sessionStorage.clear();
});

describe('useAuth', () => {
  it('signs in with password and PIN and stores the session', async () => {
    serve({
      '/api/auth/login': [[{ success: true, data: { emailOrUsername: 'ada', pinExpiresInSeconds: 600 } }]],
      '/api/auth/verify-pin': [[{ success: true, data: { token: 'tok-1', user: AUTH_USER, type: 'user' } }]],
    });
    const { result } = renderAuth();
    expect(result.current.auth.status).toBe('idle');

    act(() => result.current.auth.login('ada', 'secret-pw'));
    expect(result.current.auth.status).toBe('submitting');
    await waitFor(() => expect(result.current.auth.status).toBe('awaitingPin'));
    expect(readPendingUser()).toEqual({ emailOrUsername: 'ada' });

    act(() => result.current.auth.verifyPin('123456'));
    await waitFor(() => expect(result.current.auth.status).toBe('authenticated'));
    expect(bodyOf('/api/auth/verify-pin')).toEqual({ emailOrUsername: 'ada', pin: '123456' });
    expect(readSession()).toEqual({ token: 'tok-1', user: USER });
    expect(result.current.session.authenticated).toBe(true);
    expect(readPendingUser()).toBeNull();
  });

  it('shows the server’s message and field errors, and clears them on the next submit', async () => {
    serve({
      '/api/auth/login': [
        [{ success: false, message: 'Some fields are not valid', errors: [{ path: 'body.password', message: 'This field is required' }] }, 400],
        [{ success: false, message: 'The email, username or password is wrong.' }, 401],
      ],
    });
    const { result } = renderAuth();

    act(() => result.current.auth.login('ada', ''));
    await waitFor(() => expect(result.current.auth.error).toBe('Some fields are not valid'));
    expect(result.current.auth.fieldErrors).toEqual({ password: 'This field is required' });
    expect(result.current.auth.status).toBe('idle');

    act(() => result.current.auth.login('ada', 'wrong'));
    expect(result.current.auth.error).toBeNull();
    expect(result.current.auth.fieldErrors).toEqual({});
    await waitFor(() => expect(result.current.auth.error).toBe('The email, username or password is wrong.'));
  });

  it('logs out: clears the session even when the server call fails, and the call carried the token', async () => {
    saveSession('tok-1', USER);
    serve({});
    const { result } = renderAuth();
    expect(result.current.auth.status).toBe('authenticated');

    await act(() => result.current.auth.logout());
    expect(readSession()).toEqual({ token: null, user: null });
    expect(result.current.session.authenticated).toBe(false);
    expect(result.current.auth.status).toBe('idle');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/logout');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it('resumes where a reload left it: at the PIN step', () => {
    savePendingUser('ada');
    const { result } = renderAuth();

    expect(result.current.auth.status).toBe('awaitingPin');
  });

  it('follows the session when it ends elsewhere, and when another tab signs in', async () => {
    saveSession('tok-1', USER);
    const { result } = renderAuth();

    act(() => clearSession());
    await waitFor(() => expect(result.current.auth.status).toBe('idle'));

    act(() => {
      localStorage.setItem('auth_token', 'tok-2');
      localStorage.setItem('auth_user', JSON.stringify(USER));
      window.dispatchEvent(new StorageEvent('storage', { key: 'auth_token' }));
    });
    await waitFor(() => expect(result.current.auth.status).toBe('authenticated'));
  });

  it('resets a password: request, PIN, new password; the verified PIN survives a reload', async () => {
    serve({
      '/api/auth/forgot-password': [[{ success: true, data: { email: 'ada@example.com' } }]],
      '/api/auth/verify-reset-pin': [[{ success: true, data: { tempToken: 'temp-1' } }]],
      '/api/auth/reset-password': [[{ success: true, data: { passwordReset: true } }]],
    });
    const { result, unmount } = renderAuth();

    act(() => result.current.auth.requestReset('ada@example.com'));
    await waitFor(() => expect(result.current.auth.status).toBe('resetAwaitingPin'));
    expect(result.current.auth.resetEmail).toBe('ada@example.com');

    act(() => result.current.auth.verifyResetPin('654321'));
    await waitFor(() => expect(result.current.auth.status).toBe('resetAwaitingPassword'));
    expect(bodyOf('/api/auth/verify-reset-pin')).toEqual({ email: 'ada@example.com', pin: '654321' });

    unmount();
    const reloaded = renderAuth();
    expect(reloaded.result.current.auth.status).toBe('resetAwaitingPassword');

    act(() => reloaded.result.current.auth.resetPassword('new-secret-pw'));
    await waitFor(() => expect(reloaded.result.current.auth.status).toBe('resetDone'));
    expect(bodyOf('/api/auth/reset-password')).toEqual({ tempToken: 'temp-1', pin: '654321', newPassword: 'new-secret-pw' });
    expect(readResetTicket()).toBeNull();
  });

  it('cancel goes back to the start and forgets the pending sign-in', () => {
    savePendingUser('ada');
    const { result } = renderAuth();

    act(() => result.current.auth.cancel());
    expect(result.current.auth.status).toBe('idle');
    expect(readPendingUser()).toBeNull();
  });
});
