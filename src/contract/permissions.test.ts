import { describe, expect, it } from 'vitest';
import { allows, type Principal } from './permissions';

const admin: Principal = { type: 'admin' };
const owner: Principal = { type: 'user' };
const partner: Principal = { type: 'partner' };
const editor: Principal = {
  type: 'teammember',
  roleInfo: { permissions: { cms: true, seo: true, team: false, settings: false }, cmsPermissions: { pages: 'edit', media: 'view' } },
};

describe('allows', () => {
  it('lets anyone through public, and only signed-in users through the rest', () => {
    expect(allows('public', null)).toBe(true);
    expect(allows('authenticated', null)).toBe(false);
    expect(allows('authenticated', editor)).toBe(true);
  });

  it('keeps admin routes to admins and owner routes to admins, users and partners', () => {
    expect([admin, owner, partner, editor].map((user) => allows('admin', user))).toEqual([true, false, false, false]);
    expect([admin, owner, partner, editor].map((user) => allows('owner', user))).toEqual([true, true, true, false]);
  });

  it('gives a team member a module at their level or below, and the features their role names', () => {
    expect(allows({ website: 'pages', level: 'edit' }, editor)).toBe(true);
    expect(allows({ website: 'pages', level: 'manage' }, editor)).toBe(false);
    expect(allows({ website: 'media', level: 'edit' }, editor)).toBe(false);
    expect(allows({ website: 'gastro', level: 'view' }, editor)).toBe(false);
    expect(allows({ website: 'seo' }, editor)).toBe(true);
    expect(allows({ website: 'team' }, editor)).toBe(false);
    // Owners and admins reach every module of a website they belong to.
    expect(allows({ website: 'gastro', level: 'manage' }, owner)).toBe(true);
  });
});
