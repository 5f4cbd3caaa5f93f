import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../contract/messages';
import { changePassword, fetchDevices, fetchProfile, signOutDevice, updateProfile } from './profile';

const fetchMock = vi.fn<typeof fetch>();

function respond(body: unknown, status = 200) {
  fetchMock.mockImplementation(async () => new Response(JSON.stringify(body), { status }));
}

function sent() {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(String(init?.body ?? 'null')) };
}

const AUTH_USER = {
  _id: '0190d6b0-0000-7000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
  type: 'teammember',
  role: 'Editor',
  verified: true,
  status: 'active',
  firstName: 'Ada',
  lastName: 'Lovelace',
  language: 'en',
  websiteId: '0190d6b0-0000-7000-8000-000000000009',
  roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { pages: 'edit' } },
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
});

describe('profile calls', () => {
  it('loads the profile as a session user', async () => {
    respond({ success: true, data: AUTH_USER });

    const { _id, ...rest } = AUTH_USER;
    await expect(fetchProfile()).resolves.toEqual({ ...rest, id: _id });
    expect(sent()).toMatchObject({ url: '/api/profile', method: 'GET' });
  });

  it('updates the profile and names a reasonless failure with the given message', async () => {
    respond({ success: true, data: { ...AUTH_USER, language: 'de' } });
    await expect(updateProfile({ language: 'de' })).resolves.toMatchObject({ id: AUTH_USER._id, language: 'de' });
    expect(sent()).toMatchObject({ url: '/api/profile', method: 'PUT', body: { language: 'de' } });

    respond({ success: false }, 500);
    await expect(updateProfile({ language: 'de' }, messages.languageUpdateFailed)).rejects.toThrow('Failed to update language');
  });

  it('changes the password and returns the server’s message, or fails with "Failed to change password"', async () => {
    respond({ success: true, data: null, message: 'Your password has been changed.' });
    await expect(changePassword({ currentPassword: 'old', newPassword: 'new-secret-pw' })).resolves.toBe('Your password has been changed.');
    expect(sent()).toMatchObject({ url: '/api/profile/change-password', method: 'PUT' });

    respond({ success: false }, 500);
    await expect(changePassword({ currentPassword: 'old', newPassword: 'new-secret-pw' })).rejects.toThrow('Failed to change password');
  });

  it('lists devices with id for _id and signs one out', async () => {
    const device = {
      _id: '0190d6b0-0000-7000-8000-000000000002',
      device: 'Firefox on Linux',
      ip: '127.0.0.1',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastSeenAt: '2026-01-02T00:00:00.000Z',
      current: true,
    };
    respond({ success: true, data: [device] });
    const { _id, ...rest } = device;
    await expect(fetchDevices()).resolves.toEqual([{ ...rest, id: _id }]);

    fetchMock.mockClear();
    respond({ success: true, data: null, message: 'The device has been signed out.' });
    await expect(signOutDevice(_id)).resolves.toBe('The device has been signed out.');
    expect(sent()).toMatchObject({ url: `/api/profile/devices/${_id}`, method: 'DELETE' });
  });
});
