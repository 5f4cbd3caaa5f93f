import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../machines/auth';
import { FeedbackHost } from '../../app/feedback';
import { db } from '../../db/database';
import { keepDeviceDataWithSession } from '../../db/device-session';
import { enqueue } from '../../db/outbox';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { UserMenu } from './user-menu';

// What app/main.tsx does at boot: a sign-out empties the device's data.
keepDeviceDataWithSession();

const ID = '0190d6b0-0000-7000-8000-00000000000a';
const fetchMock = vi.fn<typeof fetch>();

function Menu() {
  const [open, setOpen] = useState(false);
  return <UserMenu open={open} onOpenChange={setOpen} />;
}

function renderMenu() {
  return renderScreen(
    <AuthProvider>
      <Menu />
      <FeedbackHost />
    </AuthProvider>,
    { path: '/categories' },
  );
}

async function queueChanges(count: number) {
  for (let n = 0; n < count; n++) {
    const path = `/api/categories/${ID}`;
    await enqueue({ resource: 'categories', entityId: ID, kind: 'update', method: 'PUT', path, itemPath: path, body: { name: `v${n}` }, baseVersion: 1, label: { item: 'category', title: '' }, fallback: '' });
  }
}

function logout() {
  fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
  fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
}

const logoutCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/logout');

beforeEach(async () => {
  await db.outbox.clear();
  await db.records.put({ resource: 'categories', id: ID, row: { _id: ID, version: 1 }, fetchedAt: 1 });
  localStorage.setItem('auth_token', 'tok-1');
  localStorage.setItem('auth_user', JSON.stringify(sessionUser()));
  fetchMock.mockReset().mockResolvedValue(new Response(JSON.stringify({ success: true, data: null })));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  localStorage.clear();
});

describe('logout', () => {
  it('with nothing unsent signs out at once and clears the device', async () => {
    const { path } = renderMenu();
    logout();

    await waitFor(() => expect(path()).toBe('/login'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(logoutCalls()).toHaveLength(1);
    expect(localStorage.getItem('auth_token')).toBeNull();
    await waitFor(async () => expect(await db.records.count()).toBe(0));
  });

  it('with changes not on the server warns first; Cancel keeps the session and the changes', async () => {
    await queueChanges(2);
    const { path } = renderMenu();
    logout();

    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent' });
    expect(dialog.textContent).toContain('You have 2 changes that are not on the server yet. If you sign out now, they are lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(path()).toBe('/categories');
    expect(logoutCalls()).toHaveLength(0);
    expect(localStorage.getItem('auth_token')).toBe('tok-1');
    expect(await db.outbox.count()).toBe(2);
  });

  it('“Sign out anyway” signs out and clears the token, the user and every Dexie table', async () => {
    await queueChanges(1);
    await db.meta.put({ key: 'session', token: 'tok-1', language: 'en', base: '' });
    const { path } = renderMenu();
    logout();

    const dialog = await screen.findByRole('dialog', { name: 'Changes not sent' });
    expect(dialog.textContent).toContain('You have 1 change that is not on the server yet. If you sign out now, it is lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out anyway' }));

    await waitFor(() => expect(path()).toBe('/login'));
    expect(logoutCalls()).toHaveLength(1);
    expect([localStorage.getItem('auth_token'), localStorage.getItem('auth_user')]).toEqual([null, null]);
    await waitFor(async () => expect([await db.outbox.count(), await db.records.count(), await db.meta.count()]).toEqual([0, 0, 0]));
  });
});
