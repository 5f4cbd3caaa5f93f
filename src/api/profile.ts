import type { MessageDescriptor } from '@lingui/core';
import { AuthUserSchema, DeviceSchema, type ChangePasswordBody, type Device, type ProfileUpdateBody } from '../contract/auth';
import { messages } from '../contract/messages';
import { request, requestData } from './request';
import { toSessionUser, type SessionUser } from './user';
import { z } from 'zod/mini';

/** A signed-in session of the user, with `id` for the server's `_id` (DESIGN §4). */
export type ProfileDevice = Omit<Device, '_id'> & { id: string };

export async function fetchProfile(signal?: AbortSignal): Promise<SessionUser> {
  return toSessionUser(await requestData('/api/profile', AuthUserSchema, { signal, fallback: messages.requestFailed }));
}

/** `fallback` names the failure when the server gives no reason, e.g. "Failed to update language". */
export async function updateProfile(body: ProfileUpdateBody, fallback: MessageDescriptor = messages.requestFailed): Promise<SessionUser> {
  return toSessionUser(await requestData('/api/profile', AuthUserSchema, { method: 'PUT', body, fallback }));
}

/** Resolves to the server's confirmation message. */
export async function changePassword(body: ChangePasswordBody): Promise<string | undefined> {
  const { message } = await request('/api/profile/change-password', { method: 'PUT', body, fallback: messages.changePasswordFailed });
  return message;
}

export async function fetchDevices(signal?: AbortSignal): Promise<ProfileDevice[]> {
  const devices = await requestData('/api/profile/devices', z.array(DeviceSchema), { signal, fallback: messages.requestFailed });
  return devices.map(({ _id, ...device }) => ({ ...device, id: _id }));
}

/** Signs the device's session out; resolves to the server's confirmation message. */
export async function signOutDevice(id: string): Promise<string | undefined> {
  const { message } = await request(`/api/profile/devices/${encodeURIComponent(id)}`, { method: 'DELETE' });
  return message;
}
