import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_CHANGE_EVENT,
  clearSession,
  homePath,
  isAuthenticated,
  readPendingUser,
  readSession,
  savePendingUser,
  saveSession,
  updateStoredUser,
  useSession,
} from './session';
import { ADA } from './user.test-support';

const USER = ADA;

afterEach(() => {
  localStorage.clear();
});

describe('the stored session', () => {
  it('keeps the token and the user under the spec’s keys', () => {
    saveSession('tok-1', USER);

    expect(localStorage.getItem('auth_token')).toBe('tok-1');
    expect(JSON.parse(localStorage.getItem('auth_user') ?? 'null')).toEqual(USER);
    expect(readSession()).toEqual({ token: 'tok-1', user: USER });
  });

  // Spec §2: a token, a user and verified === true.
  it.each([
    ['token, user and verified', true, () => saveSession('tok-1', USER)],
    ['no token', false, () => localStorage.setItem('auth_user', JSON.stringify(USER))],
    ['no user', false, () => localStorage.setItem('auth_token', 'tok-1')],
    ['an unverified user', false, () => saveSession('tok-1', { ...USER, verified: false })],
    ['a user that is not JSON', false, () => (saveSession('tok-1', USER), localStorage.setItem('auth_user', '{oops'))],
    ['a user of another shape', false, () => (saveSession('tok-1', USER), localStorage.setItem('auth_user', '{"verified":true}'))],
  ])('with %s, authenticated is %s', (_case, expected, arrange) => {
    arrange();
    expect(isAuthenticated()).toBe(expected);
  });

  it('clearSession removes the token, the user and the pending user', () => {
    saveSession('tok-1', USER);
    savePendingUser('ada');
    clearSession();

    expect([localStorage.getItem('auth_token'), localStorage.getItem('auth_user'), readPendingUser()]).toEqual([null, null, null]);
  });

  it('stores the pending user for /verification until the PIN is verified', () => {
    savePendingUser('ada');
    expect(readPendingUser()).toEqual({ emailOrUsername: 'ada' });
    expect(JSON.parse(localStorage.getItem('pendingUser') ?? 'null')).toEqual({ emailOrUsername: 'ada' });

    saveSession('tok-1', USER);
    expect(readPendingUser()).toBeNull();
  });

  it('announces every change with an auth-change event', () => {
    const announced = vi.fn();
    window.addEventListener(AUTH_CHANGE_EVENT, announced);
    saveSession('tok-1', USER);
    updateStoredUser({ ...USER, language: 'de' });
    savePendingUser('ada');
    clearSession();
    window.removeEventListener(AUTH_CHANGE_EVENT, announced);

    expect(announced).toHaveBeenCalledTimes(4);
  });
});

describe('useSession', () => {
  it('follows changes in this tab and in others', () => {
    const { result } = renderHook(() => useSession());
    expect(result.current).toEqual({ user: null, authenticated: false });

    act(() => saveSession('tok-1', USER));
    expect(result.current).toEqual({ user: USER, authenticated: true });

    act(() => {
      localStorage.setItem('auth_user', JSON.stringify({ ...USER, firstName: 'Augusta' }));
      window.dispatchEvent(new StorageEvent('storage', { key: 'auth_user' }));
    });
    expect(result.current.user?.firstName).toBe('Augusta');

    act(() => clearSession());
    expect(result.current).toEqual({ user: null, authenticated: false });
  });

  it('returns the same object while nothing changed', () => {
    saveSession('tok-1', USER);
    const { result, rerender } = renderHook(() => useSession());
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });
});

describe('homePath', () => {
  it.each([
    ['nobody', '/login', null],
    ['an admin by type', '/', { ...USER, type: 'admin' as const }],
    ['an admin by role', '/', { ...USER, role: 'admin' }],
    ['a team member', '/websites/w-1', { ...USER, type: 'teammember' as const, websiteId: 'w-1' }],
    ['a team member without a website', '/user/websites', { ...USER, type: 'teammember' as const }],
    ['an owner', '/user/websites', USER],
    ['a partner', '/user/websites', { ...USER, type: 'partner' as const }],
  ])('sends %s to %s', (_case, path, user) => {
    expect(homePath(user)).toBe(path);
  });
});
