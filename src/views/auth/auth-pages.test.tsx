import { act, fireEvent, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { useAuth } from '../../machines/auth';
import { renderScreen } from '../render-screen.test-support';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { ResetPasswordPage } from './reset-password-page';
import { VerificationPage } from './verification-page';

type Auth = ReturnType<typeof useAuth>;

const mocks = vi.hoisted(() => ({
  auth: {} as Auth,
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
}));

vi.mock('../../machines/auth', () => ({ useAuth: () => mocks.auth }));
vi.mock('../../machines/feedback', () => ({ useToast: () => mocks.toast }));

beforeEach(() => {
  localStorage.clear();
  mocks.toast.success.mockReset();
  mocks.auth = {
    status: 'idle',
    error: null,
    fieldErrors: {},
    resetEmail: null,
    login: vi.fn(),
    verifyPin: vi.fn(),
    requestReset: vi.fn(),
    resumeReset: vi.fn(),
    verifyResetPin: vi.fn(),
    resetPassword: vi.fn(),
    logout: vi.fn(async () => {}),
    cancel: vi.fn(),
  };
});

/** Renders `page`, and returns a way to move the (mocked) machine on as the real one would. */
function show(Page: ComponentType, path: string) {
  const screenApi = renderScreen(<Page />, { path });
  const update = (changes: Partial<Auth>) => {
    mocks.auth = { ...mocks.auth, ...changes };
    act(() => screenApi.rerender(<Page />));
  };
  return { ...screenApi, update };
}

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('LoginPage', () => {
  it('checks the fields before calling the server, and keeps what was typed', () => {
    show(LoginPage, '/login');
    type('Email or username', '   ');
    submit('Sign in');

    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(mocks.auth.login).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Email or username').value).toBe('   ');
  });

  it('signs in with the trimmed identifier and goes to /verification once the PIN is mailed', () => {
    const { update, path } = show(LoginPage, '/login');
    type('Email or username', ' anna ');
    type('Password', 'secret password');
    submit('Sign in');
    expect(mocks.auth.login).toHaveBeenCalledWith('anna', 'secret password');

    update({ status: 'submitting' });
    expect(screen.getByRole('button', { name: 'Signing in…' }).hasAttribute('disabled')).toBe(true);
    update({ status: 'awaitingPin' });
    expect(path()).toBe('/verification');
  });

  it('stays when it opens while a PIN is pending (the user came back to change the account)', () => {
    mocks.auth.status = 'awaitingPin';
    const { path } = show(LoginPage, '/login');
    expect(path()).toBe('/login');
  });

  it('shows the server’s error and field errors without losing the input', () => {
    const { update } = show(LoginPage, '/login');
    type('Email or username', 'anna');
    type('Password', 'wrong one');
    submit('Sign in');
    update({ status: 'idle', error: 'The email, username or password is wrong.', fieldErrors: { password: 'Too weak' } });

    expect(screen.getByRole('alert').textContent).toBe('The email, username or password is wrong.');
    expect(screen.getByText('Too weak')).toBeDefined();
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('wrong one');
  });

  it('drops an error another page left behind when it opens', () => {
    mocks.auth.error = 'stale';
    show(LoginPage, '/login');
    expect(mocks.auth.cancel).toHaveBeenCalled();
  });
});

describe('VerificationPage', () => {
  beforeEach(() => {
    localStorage.setItem('pendingUser', JSON.stringify({ emailOrUsername: 'anna@example.test' }));
    mocks.auth.status = 'awaitingPin';
  });

  it('names the account and accepts only a 6-digit PIN', () => {
    show(VerificationPage, '/verification');
    expect(screen.getByText(/anna@example\.test/)).toBeDefined();

    type('PIN', '12a34');
    expect(screen.getByLabelText<HTMLInputElement>('PIN').value).toBe('1234');
    submit('Verify');
    expect(screen.getByText('The PIN has 6 digits')).toBeDefined();
    expect(mocks.auth.verifyPin).not.toHaveBeenCalled();

    type('PIN', '123456');
    submit('Verify');
    expect(mocks.auth.verifyPin).toHaveBeenCalledWith('123456');
  });

  it('goes back to /login and ends the pending sign-in', () => {
    const { path } = show(VerificationPage, '/verification');
    submit('Back to login');

    expect(mocks.auth.cancel).toHaveBeenCalled();
    expect(path()).toBe('/login');
  });
});

describe('ForgotPasswordPage', () => {
  it('asks for a valid email, then for the mailed PIN, then continues to /reset-password', () => {
    const { update, path } = show(ForgotPasswordPage, '/forgot-password');
    type('Email', 'not-an-email');
    submit('Send PIN');
    expect(screen.getByText('Please enter a valid email address')).toBeDefined();

    type('Email', 'anna@example.test');
    submit('Send PIN');
    expect(mocks.auth.requestReset).toHaveBeenCalledWith('anna@example.test');

    update({ status: 'resetAwaitingPin', resetEmail: 'anna@example.test' });
    expect(screen.getByRole('status').textContent).toContain('anna@example.test');
    type('PIN', '654321');
    submit('Continue');
    expect(mocks.auth.verifyResetPin).toHaveBeenCalledWith('654321');

    update({ status: 'resetVerifying' });
    update({ status: 'resetAwaitingPassword' });
    expect(path()).toBe('/reset-password');
  });

  it('opened from an invitation mail, starts at the PIN for the address the link names', () => {
    window.history.replaceState(null, '', '/forgot-password?email=new%40example.test&pin=mailed');
    try {
      const { update } = show(ForgotPasswordPage, '/forgot-password');
      expect(mocks.auth.resumeReset).toHaveBeenCalledWith('new@example.test');
      update({ status: 'resetAwaitingPin', resetEmail: 'new@example.test' });
      expect(screen.getByRole('status').textContent).toBe('Enter the 6-digit PIN from the mail to new@example.test, then choose your password.');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('lets the user start over with another address', () => {
    mocks.auth.status = 'resetAwaitingPin';
    show(ForgotPasswordPage, '/forgot-password');
    submit('Use another email address');
    expect(mocks.auth.cancel).toHaveBeenCalled();
  });
});

describe('ResetPasswordPage', () => {
  it('asks for a PIN first when no reset is under way', () => {
    show(ResetPasswordPage, '/reset-password');
    expect(screen.getByText(/first confirm your email address/)).toBeDefined();
    expect(screen.getByRole('link', { name: 'Request a new PIN' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('wants the new password twice and at least 8 characters long', () => {
    mocks.auth.status = 'resetAwaitingPassword';
    show(ResetPasswordPage, '/reset-password');
    type('New password', 'short');
    type('Confirm new password', 'other');
    submit('Save password');

    expect(screen.getByText('The password needs at least 8 characters')).toBeDefined();
    expect(screen.getByText('The passwords do not match')).toBeDefined();
    expect(mocks.auth.resetPassword).not.toHaveBeenCalled();
  });

  it('saves the password, then returns to /login with a success toast', () => {
    mocks.auth.status = 'resetAwaitingPassword';
    const { update, path } = show(ResetPasswordPage, '/reset-password');
    type('New password', 'a new password');
    type('Confirm new password', 'a new password');
    submit('Save password');
    expect(mocks.auth.resetPassword).toHaveBeenCalledWith('a new password');

    update({ status: 'resetSubmitting' });
    update({ status: 'resetDone' });
    expect(mocks.toast.success).toHaveBeenCalledWith('Your password has been changed. Please sign in.');
    expect(path()).toBe('/login');
  });
});
