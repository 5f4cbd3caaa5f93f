import { describe, expect, it } from 'vitest';
import { sessionUser } from '../views/render-screen.test-support';
import { guard, type Access, type GuardSession } from './guards';
import type { SessionUser } from '../api/session';

const SITE = '0190a1b2-0000-7000-8000-000000000001';

// An owner unless told otherwise.
const user = (overrides: Partial<SessionUser>) => sessionUser({ type: 'user', role: null, ...overrides });

const signedIn = (u: SessionUser): GuardSession => ({ user: u, authenticated: true, pending: false });

const visitors: Record<string, GuardSession> = {
  anonymous: { user: null, authenticated: false, pending: false },
  pending: { user: null, authenticated: false, pending: true },
  // A stored user whose PIN step never finished is not signed in (spec §2: verified must be true).
  unverified: { user: user({ verified: false }), authenticated: false, pending: false },
  admin: signedIn(user({ type: 'admin', role: 'admin' })),
  adminByRole: signedIn(user({ type: 'user', role: 'admin' })),
  owner: signedIn(user({ type: 'user' })),
  partner: signedIn(user({ type: 'partner' })),
  member: signedIn(user({ type: 'teammember', websiteId: SITE })),
  memberWithoutSite: signedIn(user({ type: 'teammember' })),
};

// Where each visitor ends up on a page of each class (null: the page is shown). Paths are examples of the class.
const expectations: [Access, string, Record<keyof typeof visitors, string | null>][] = [
  [
    'public',
    '/login',
    {
      anonymous: null,
      pending: null,
      unverified: null,
      admin: '/',
      adminByRole: '/',
      owner: '/user/websites',
      partner: '/user/websites',
      member: `/websites/${SITE}`,
      memberWithoutSite: '/user/websites',
    },
  ],
  [
    'pending',
    '/verification',
    {
      anonymous: '/login',
      pending: null,
      unverified: '/login',
      admin: '/',
      adminByRole: '/',
      owner: '/user/websites',
      partner: '/user/websites',
      member: `/websites/${SITE}`,
      memberWithoutSite: '/user/websites',
    },
  ],
  [
    'admin',
    '/users',
    {
      anonymous: '/login',
      pending: '/login',
      unverified: '/login',
      admin: null,
      adminByRole: null,
      owner: '/user/websites',
      partner: '/user/websites',
      member: `/websites/${SITE}`,
      memberWithoutSite: '/user/websites',
    },
  ],
  [
    'owner',
    '/user/partners',
    {
      anonymous: '/login',
      pending: '/login',
      unverified: '/login',
      admin: '/',
      adminByRole: null,
      owner: null,
      partner: null,
      member: `/websites/${SITE}`,
      memberWithoutSite: '/user/websites',
    },
  ],
  [
    'owner',
    '/user/websites',
    {
      anonymous: '/login',
      pending: '/login',
      unverified: '/login',
      admin: '/',
      adminByRole: null,
      owner: null,
      partner: null,
      member: `/websites/${SITE}`,
      // Their home, though they own nothing: shown rather than redirected to itself.
      memberWithoutSite: null,
    },
  ],
  [
    'signedIn',
    '/profile',
    {
      anonymous: '/login',
      pending: '/login',
      unverified: '/login',
      admin: null,
      adminByRole: null,
      owner: null,
      partner: null,
      member: null,
      memberWithoutSite: null,
    },
  ],
  [
    'unknown',
    '/no/such/page',
    {
      anonymous: '/login',
      pending: '/login',
      unverified: '/login',
      admin: '/',
      adminByRole: '/',
      owner: '/user/websites',
      partner: '/user/websites',
      member: `/websites/${SITE}`,
      memberWithoutSite: '/user/websites',
    },
  ],
];

describe('guard', () => {
  for (const [access, path, outcomes] of expectations) {
    describe(`${access} (${path})`, () => {
      it.each(Object.entries(outcomes))('%s → %s', (visitor, expected) => {
        expect(guard(access, path, visitors[visitor]!)).toBe(expected);
      });
    });
  }

  it('sends /register, a path of the global public set without a page, home or to /login', () => {
    expect(guard('unknown', '/register', visitors.admin!)).toBe('/');
    expect(guard('unknown', '/register', visitors.anonymous!)).toBe('/login');
  });
});
