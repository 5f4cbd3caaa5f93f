import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSession, useSession, type SessionUser } from '../../api/session';
import type { RoleInfo } from '../../contract/permissions';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { useFreshRole } from './fresh-role';

const SITE = '0190a1b2-0000-7000-8000-000000000001';
const fetchMock = vi.fn<typeof fetch>();
const role = (team: boolean): RoleInfo => ({ permissions: { cms: true, seo: false, team, settings: false }, cmsPermissions: { pages: 'view' } });
const member = sessionUser({ type: 'teammember', role: 'Editors', websiteId: SITE, roleInfo: role(false) });
/** The profile the server answers with: the member as they are now. */
let current: SessionUser = member;

function Probe() {
  const { user } = useSession();
  useFreshRole(user);
  return <p>{user?.roleInfo?.permissions.team ? 'runs the team' : 'does not run the team'}</p>;
}

function signIn(user: SessionUser) {
  localStorage.setItem('auth_token', 'token');
  localStorage.setItem('auth_user', JSON.stringify(user));
}

beforeEach(() => {
  localStorage.clear();
  current = member;
  fetchMock.mockReset().mockImplementation(async () => {
    const { id, ...rest } = current;
    return new Response(JSON.stringify({ success: true, data: { ...rest, _id: id } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('a team member’s stored role', () => {
  it('is read again when the app opens and when it comes back into view, so the sidebar and screens follow a changed role', async () => {
    current = { ...member, role: 'Leads', roleInfo: role(true) };
    signIn(member);
    renderScreen(<Probe />);

    expect(await screen.findByText('runs the team')).toBeDefined();
    expect(fetchMock).toHaveBeenCalledWith('/api/profile', expect.anything());
    expect(readSession().user).toMatchObject({ role: 'Leads', roleInfo: role(true) });

    current = { ...member, roleInfo: role(false) };
    document.dispatchEvent(new Event('visibilitychange'));
    expect(await screen.findByText('does not run the team')).toBeDefined();
  });

  it('keeps the stored role when the server cannot be asked', async () => {
    fetchMock.mockRejectedValue(new TypeError('offline'));
    signIn(member);
    renderScreen(<Probe />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByText('does not run the team')).toBeDefined();
    expect(readSession().user).toEqual(member);
  });

  it('is not asked for by anyone else: their stored user has no role others change', () => {
    signIn(sessionUser({ type: 'user', role: null }));
    renderScreen(<Probe />);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
