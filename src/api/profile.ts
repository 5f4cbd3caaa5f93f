import type { MessageDescriptor } from '@lingui/core';
import * as auth from '../contract/auth';
import type { ChangePasswordBody, Device, ProfileUpdateBody } from '../contract/auth';
import { call } from './action';
import { toSessionUser, type SessionUser } from './user';

/** A signed-in session of the user, with `id` for the server's `_id` (DESIGN §4). */
export type ProfileDevice = Omit<Device, '_id'> & { id: string };

export async function fetchProfile(signal?: AbortSignal): Promise<SessionUser> {
  return toSessionUser((await call(auth.getProfile, {}, { signal })).data);
}

/** `fallback` names the failure when the server gives no reason, e.g. "Failed to update language". */
export async function updateProfile(body: ProfileUpdateBody, fallback?: MessageDescriptor): Promise<SessionUser> {
  return toSessionUser((await call(auth.updateProfile, { body }, { fallback })).data);
}

/** Resolves to the server's confirmation message. */
export async function changePassword(body: ChangePasswordBody): Promise<string | undefined> {
  return (await call(auth.changePassword, { body })).message;
}

export async function fetchDevices(signal?: AbortSignal): Promise<ProfileDevice[]> {
  const { data } = await call(auth.listDevices, {}, { signal });
  return data.map(({ _id, ...device }) => ({ ...device, id: _id }));
}

/** Signs the device's session out; resolves to the server's confirmation message. */
export async function signOutDevice(id: string): Promise<string | undefined> {
  return (await call(auth.signOutDevice, { params: { id } })).message;
}
