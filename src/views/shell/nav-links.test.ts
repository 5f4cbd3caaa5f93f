import { describe, expect, it } from 'vitest';
import { sessionUser } from '../render-screen.test-support';
import type { SessionUser } from '../../api/session';
import type { RoleInfo } from '../../contract/permissions';
import { activeHref, navLinks } from './nav-links';

const SITE = '0190a1b2-0000-7000-8000-000000000001';

// An owner unless told otherwise.
const user = (overrides: Partial<SessionUser>) => sessionUser({ type: 'user', role: null, ...overrides });

function role(flags: Partial<RoleInfo['permissions']>): RoleInfo {
  return { permissions: { cms: false, seo: false, team: false, settings: false, ...flags }, cmsPermissions: {} };
}

const summary = (links: ReturnType<typeof navLinks>) => links.map((link) => `${link.label.message} ${link.href}`);

describe('navLinks', () => {
  it('gives an admin (by type or by role) the admin area', () => {
    const expected = ['Dashboard /', 'Users /users', 'Partners /partners', 'Websites /websites', 'Languages /languages', 'Admins /admins', 'Recycle bin /recycle-bin', 'Activity /activity'];
    expect(summary(navLinks(user({ type: 'admin', role: 'admin' }), []))).toEqual(expected);
    expect(summary(navLinks(user({ type: 'user', role: 'admin' }), []))).toEqual(expected);
  });

  it('gives a team member with every flag the whole website', () => {
    const member = user({ type: 'teammember', websiteId: SITE, roleInfo: role({ cms: true, seo: true, team: true, settings: true }) });
    expect(summary(navLinks(member, []))).toEqual([
      `Dashboard /websites/${SITE}`,
      `CMS /cms/${SITE}`,
      `SEO /websites/seo/${SITE}`,
      `Team /cms/${SITE}/team`,
      `Settings /websites/edit/${SITE}`,
    ]);
  });

  it.each([
    ['cms', 'CMS'],
    ['seo', 'SEO'],
    ['team', 'Team'],
    ['settings', 'Settings'],
  ] as const)('shows a team member %s only with that flag', (flag, text) => {
    const member = user({ type: 'teammember', websiteId: SITE, roleInfo: role({ [flag]: true }) });
    expect(summary(navLinks(member, [])).map((entry) => entry.split(' ')[0])).toEqual(['Dashboard', text]);
  });

  it('gives a team member without a role only the dashboard', () => {
    expect(summary(navLinks(user({ type: 'teammember', websiteId: SITE }), []))).toEqual([`Dashboard /websites/${SITE}`]);
  });

  it('gives a partner with exactly one partner record its settings instead of the list', () => {
    expect(summary(navLinks(user({ type: 'partner' }), ['p1']))).toEqual(['Websites /user/websites', 'Settings /partners/p1']);
  });

  it.each([[[]], [['p1', 'p2']]])('gives a partner with %j partner records the partners list', (ids) => {
    expect(summary(navLinks(user({ type: 'partner' }), ids))).toEqual(['Websites /user/websites', 'Partners /user/partners']);
  });

  it('gives an owner websites and partners, whatever records exist', () => {
    expect(summary(navLinks(user({ type: 'user' }), ['p1']))).toEqual(['Websites /user/websites', 'Partners /user/partners']);
  });

  it('treats a team member without a website as any other user', () => {
    expect(summary(navLinks(user({ type: 'teammember', roleInfo: role({ cms: true }) }), []))).toEqual([
      'Websites /user/websites',
      'Partners /user/partners',
    ]);
  });
});

describe('activeHref', () => {
  const admin = navLinks(user({ type: 'admin', role: 'admin' }), []);
  const member = navLinks(user({ type: 'teammember', websiteId: SITE, roleInfo: role({ cms: true, team: true, settings: true }) }), []);

  it.each([
    [admin, '/', '/'],
    [admin, '/users', '/users'],
    [admin, '/users/edit/1', '/users'],
    [admin, '/websites/manage/1', '/websites'],
    [admin, '/usersettings', undefined],
    [admin, '/settings', undefined],
    [member, `/cms/${SITE}/team/roles`, `/cms/${SITE}/team`],
    [member, `/cms/${SITE}/pages`, `/cms/${SITE}`],
    [member, `/websites/edit/${SITE}`, `/websites/edit/${SITE}`],
    [member, `/websites/${SITE}`, `/websites/${SITE}`],
  ])('marks the closest link for %#: %s', (links, path, expected) => {
    expect(activeHref(links, path)).toBe(expected);
  });
});
