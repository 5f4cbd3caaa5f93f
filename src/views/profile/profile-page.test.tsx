import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfileDevice } from '../../api/profile';
import { ValidationError } from '../../api/request';
import { readSession } from '../../api/session';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { ProfilePage } from './profile-page';

const mocks = vi.hoisted(() => ({
  api: {
    fetchProfile: vi.fn(),
    updateProfile: vi.fn(),
    changePassword: vi.fn(),
    fetchDevices: vi.fn(),
    signOutDevice: vi.fn(),
  },
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn() },
  confirm: vi.fn(),
}));
vi.mock('../../api/profile', () => mocks.api);
vi.mock('../../machines/feedback', () => ({ useToast: () => mocks.toast, useConfirm: () => ({ confirm: mocks.confirm }) }));

const stored = sessionUser({ firstName: 'Anna', lastName: 'Berg', username: 'anna' });

const devices: ProfileDevice[] = [
  { id: 'd1', device: 'Chrome on Linux', ip: '10.0.0.1', createdAt: '2026-01-01T10:00:00Z', lastSeenAt: '2026-01-02T10:00:00Z', current: true },
  { id: 'd2', device: 'Safari on iPhone', ip: '10.0.0.2', createdAt: '2026-01-01T10:00:00Z', lastSeenAt: '2026-01-03T10:00:00Z', current: false },
];

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('auth_token', 'token');
  localStorage.setItem('auth_user', JSON.stringify(stored));
  for (const fn of [...Object.values(mocks.api), ...Object.values(mocks.toast), mocks.confirm]) fn.mockReset();
  mocks.api.fetchProfile.mockResolvedValue(stored);
  mocks.api.fetchDevices.mockResolvedValue(devices);
});

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const section = (name: string) => within(screen.getByRole('region', { name }));

describe('ProfilePage', () => {
  it('saves names and username and updates the stored user', async () => {
    mocks.api.updateProfile.mockImplementation(async (body: object) => ({ ...stored, ...body }));
    renderScreen(<ProfilePage />, { path: '/profile' });
    expect(field('First name').value).toBe('Anna');

    type('First name', 'Anne');
    type('Username', 'anne.b');
    fireEvent.click(section('Personal details').getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(mocks.toast.success).toHaveBeenCalledWith('Profile updated'));
    expect(mocks.api.updateProfile).toHaveBeenCalledWith({ firstName: 'Anne', lastName: 'Berg', username: 'anne.b' });
    expect(readSession().user?.firstName).toBe('Anne');
  });

  it('shows the stored user at once, then the server’s profile, and keeps it', async () => {
    mocks.api.fetchProfile.mockResolvedValue({ ...stored, firstName: 'Annika' });
    renderScreen(<ProfilePage />);
    expect(field('First name').value).toBe('Anna');

    await waitFor(() => expect(field('First name').value).toBe('Annika'));
    expect(readSession().user?.firstName).toBe('Annika');
  });

  it('refuses a malformed username before asking the server', () => {
    renderScreen(<ProfilePage />);
    type('Username', 'a b');
    fireEvent.click(section('Personal details').getByRole('button', { name: 'Save' }));

    expect(screen.getByText('Use 3 to 50 letters, digits, dots, dashes or underscores')).toBeDefined();
    expect(mocks.api.updateProfile).not.toHaveBeenCalled();
  });

  it('shows the server’s field errors at their fields and keeps the input', async () => {
    mocks.api.updateProfile.mockRejectedValue(
      new ValidationError('Some fields are not valid', [{ path: 'body.username', message: 'This username is already taken.' }], {}),
    );
    renderScreen(<ProfilePage />);
    type('Username', 'taken');
    fireEvent.click(section('Personal details').getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('This username is already taken.')).toBeDefined();
    expect(section('Personal details').queryByRole('alert')).toBeNull();
    expect(field('Username').value).toBe('taken');
  });

  it('changes the password after checking the confirmation, then reloads the devices', async () => {
    mocks.api.changePassword.mockResolvedValue('Your password has been changed.');
    renderScreen(<ProfilePage />);
    const form = section('Change password');
    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'old password' } });
    fireEvent.change(form.getByLabelText('New password'), { target: { value: 'a new password' } });
    fireEvent.change(form.getByLabelText('Confirm new password'), { target: { value: 'a new passwort' } });
    fireEvent.click(form.getByRole('button', { name: 'Change password' }));
    expect(form.getByText('The passwords do not match')).toBeDefined();
    expect(mocks.api.changePassword).not.toHaveBeenCalled();

    fireEvent.change(form.getByLabelText('Confirm new password'), { target: { value: 'a new password' } });
    fireEvent.click(form.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(mocks.toast.success).toHaveBeenCalledWith('Your password has been changed.'));
    expect(mocks.api.changePassword).toHaveBeenCalledWith({ currentPassword: 'old password', newPassword: 'a new password' });
    expect(form.getByLabelText<HTMLInputElement>('Current password').value).toBe('');
    await waitFor(() => expect(mocks.api.fetchDevices).toHaveBeenCalledTimes(2));
  });

  it('shows a failure that names no field above the form', async () => {
    mocks.api.changePassword.mockRejectedValue(new Error('Network error or server unavailable'));
    renderScreen(<ProfilePage />);
    const form = section('Change password');
    fireEvent.change(form.getByLabelText('Current password'), { target: { value: 'old password' } });
    fireEvent.change(form.getByLabelText('New password'), { target: { value: 'a new password' } });
    fireEvent.change(form.getByLabelText('Confirm new password'), { target: { value: 'a new password' } });
    fireEvent.click(form.getByRole('button', { name: 'Change password' }));

    expect((await form.findByRole('alert')).textContent).toBe('Network error or server unavailable');
    expect(form.getByLabelText<HTMLInputElement>('New password').value).toBe('a new password');
  });

  it('lists the devices, marks this one and signs another out after a confirmation', async () => {
    mocks.confirm.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    mocks.api.signOutDevice.mockResolvedValue(undefined);
    renderScreen(<ProfilePage />);
    const list = section('Devices');

    expect(await list.findByText('Safari on iPhone')).toBeDefined();
    expect(list.getAllByText('This device')).toHaveLength(1);
    expect(list.getByText(/IP 10\.0\.0\.2 · last seen/)).toBeDefined();
    expect(list.getAllByRole('button', { name: /Sign out/ })).toHaveLength(1);

    fireEvent.click(list.getByRole('button', { name: 'Sign out Safari on iPhone' }));
    await waitFor(() => expect(mocks.confirm).toHaveBeenCalledOnce());
    expect(mocks.confirm.mock.calls[0]?.[0]).toMatchObject({ type: 'danger' });
    expect(mocks.api.signOutDevice).not.toHaveBeenCalled();

    fireEvent.click(list.getByRole('button', { name: 'Sign out Safari on iPhone' }));
    await waitFor(() => expect(list.queryByText('Safari on iPhone')).toBeNull());
    expect(mocks.api.signOutDevice).toHaveBeenCalledWith('d2');
    expect(mocks.toast.success).toHaveBeenCalledWith('The device has been signed out.');
  });

  it('offers a retry when the devices cannot be loaded', async () => {
    mocks.api.fetchDevices.mockRejectedValueOnce(new Error('Network error or server unavailable'));
    renderScreen(<ProfilePage />);

    fireEvent.click(await section('Devices').findByRole('button', { name: 'Try again' }));
    expect(await section('Devices').findByText('Chrome on Linux')).toBeDefined();
  });
});
