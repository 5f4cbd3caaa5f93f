// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { bearer, tokenFor } from '../../tests/support/auth';
import { storeKinds } from '../../tests/support/store';
import { seedUser, seedWebsite } from '../../tests/support/users';
import type { RoleInfo } from '../contract/permissions';
import type { Policy, WebsiteSource } from './policy';

const none = { cms: false, seo: false, team: false, settings: false };
const role = (name: string, permissions: Partial<RoleInfo['permissions']>, cmsPermissions: RoleInfo['cmsPermissions']) => ({
  name,
  permissions: { ...none, ...permissions },
  cmsPermissions,
});

/** One tiny route per policy; the website routes read the website from `:websiteId`, the last from `:id`. */
const routes: [name: string, path: string, policy: Policy, website?: WebsiteSource][] = [
  ['authenticated', '/api/test/authenticated', 'authenticated'],
  ['admin', '/api/test/admin', 'admin'],
  ['owner', '/api/test/owner', 'owner'],
  ['pages view', '/api/test/sites/:websiteId/pages-view', { website: 'pages', level: 'view' }],
  ['pages edit', '/api/test/sites/:websiteId/pages-edit', { website: 'pages', level: 'edit' }],
  ['pages manage', '/api/test/sites/:websiteId/pages-manage', { website: 'pages', level: 'manage' }],
  ['cms', '/api/test/sites/:websiteId/cms', { website: 'cms' }],
  ['seo', '/api/test/sites/:websiteId/seo', { website: 'seo' }],
  ['settings by :id', '/api/test/websites/:id/settings', { website: 'settings' }, { from: 'path', param: 'id' }],
];

const callers = ['anonymous', 'admin', 'owner', 'partner', 'stranger', 'editor', 'viewer', 'no cms', 'roleless', 'other team'] as const;
type Caller = (typeof callers)[number];

/** On the caller's website W (owned by "owner", shared with "partner"). */
const onW: Record<string, Record<Caller, number>> = {
  authenticated: { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 200, editor: 200, viewer: 200, 'no cms': 200, roleless: 200, 'other team': 200 },
  admin: { anonymous: 401, admin: 200, owner: 403, partner: 403, stranger: 403, editor: 403, viewer: 403, 'no cms': 403, roleless: 403, 'other team': 403 },
  owner: { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 200, editor: 403, viewer: 403, 'no cms': 403, roleless: 403, 'other team': 403 },
  'pages view': { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 200, viewer: 200, 'no cms': 403, roleless: 403, 'other team': 404 },
  'pages edit': { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 200, viewer: 403, 'no cms': 403, roleless: 403, 'other team': 404 },
  'pages manage': { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 403, viewer: 403, 'no cms': 403, roleless: 403, 'other team': 404 },
  cms: { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 200, viewer: 200, 'no cms': 403, roleless: 403, 'other team': 404 },
  seo: { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 200, viewer: 403, 'no cms': 403, roleless: 403, 'other team': 404 },
  'settings by :id': { anonymous: 401, admin: 200, owner: 200, partner: 200, stranger: 404, editor: 403, viewer: 403, 'no cms': 200, roleless: 403, 'other team': 404 },
};

describe.each(storeKinds)('authorization matrix (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  const tokens = new Map<Caller, string>();
  const sites = { W: '', S: '' };

  beforeAll(async () => {
    test = await createTestApp({ kind });
    for (const [, path, policy, website] of routes) {
      test.app.get(path, { config: { policy, website } }, async () => ({ success: true, data: null }));
    }
    await test.app.ready();

    const store = test.store;
    const person = (type: 'admin' | 'user' | 'partner', name: string) =>
      seedUser(store, { type, email: `${name}@example.test`, username: name, password: 'unused password' });
    const admin = await person('admin', 'admin');
    const owner = await person('user', 'owner');
    const partner = await person('partner', 'partner');
    const stranger = await person('user', 'stranger');
    sites.W = (await seedWebsite(store, { ownerId: owner.id, partnerUserId: partner.id })).id;
    sites.S = (await seedWebsite(store, { ownerId: stranger.id })).id;
    const member = (name: string, websiteId: string, memberRole?: ReturnType<typeof role>) =>
      seedUser(store, { type: 'teammember', email: `${name}@example.test`, username: name, password: 'unused password', websiteId, role: memberRole });
    const editor = await member('editor', sites.W, role('Editor', { cms: true, seo: true }, { pages: 'edit' }));
    const viewer = await member('viewer', sites.W, role('Viewer', { cms: true }, { pages: 'view' }));
    // Module levels count only with the cms flag; the settings flag stands on its own.
    const noCms = await member('nocms', sites.W, role('Settings only', { settings: true }, { pages: 'manage' }));
    const roleless = await member('roleless', sites.W);
    const otherTeam = await member('otherteam', sites.S, role('Manager', { cms: true, seo: true, team: true, settings: true }, { pages: 'manage' }));
    const users = { admin, owner, partner, stranger, editor, viewer, 'no cms': noCms, roleless, 'other team': otherTeam };
    for (const [name, user] of Object.entries(users)) tokens.set(name as Caller, await tokenFor(store, user.id));
  });
  afterAll(() => test.app.close());

  const call = (who: Caller, path: string, websiteId: string) => {
    const token = tokens.get(who);
    return test.app.inject({ url: path.replace(/:(websiteId|id)/, websiteId), headers: token ? bearer(token) : {} });
  };

  it.each(routes.map(([name, path]) => [name, path] as const))('%s on the caller’s website', async (name, path) => {
    const statuses = Object.fromEntries(await Promise.all(callers.map(async (who) => [who, (await call(who, path, sites.W)).statusCode])));
    expect(statuses).toEqual(onW[name]);
  });

  it('answers 404 for an unknown or malformed website, to everyone but the anonymous', async () => {
    for (const websiteId of ['0195f0b4-0000-7000-8000-000000000000', 'not-a-uuid']) {
      for (const [, path] of routes.filter(([, p]) => p.includes(':'))) {
        expect((await call('admin', path, websiteId)).statusCode).toBe(404);
        expect((await call('owner', path, websiteId)).statusCode).toBe(404);
        expect((await call('editor', path, websiteId)).statusCode).toBe(404);
        expect((await call('anonymous', path, websiteId)).statusCode).toBe(401);
      }
    }
  });

  it('lets the other website’s own people in there and keeps W’s out', async () => {
    const path = '/api/test/sites/:websiteId/pages-manage';
    expect((await call('stranger', path, sites.S)).statusCode).toBe(200);
    expect((await call('other team', path, sites.S)).statusCode).toBe(200);
    expect((await call('owner', path, sites.S)).statusCode).toBe(404);
    expect((await call('editor', path, sites.S)).statusCode).toBe(404);
  });

  it('answers 404 and 403 with the envelope, and rejects a forged token with 401', async () => {
    const notFound = await call('stranger', '/api/test/sites/:websiteId/cms', sites.W);
    expect(notFound.json()).toEqual({ success: false, message: 'Not found' });
    const forbidden = await call('viewer', '/api/test/sites/:websiteId/pages-edit', sites.W);
    expect(forbidden.json()).toEqual({ success: false, message: 'You are not allowed to do this.' });
    const forged = await test.app.inject({ url: '/api/test/admin', headers: bearer('x'.repeat(43)) });
    expect(forged.statusCode).toBe(401);
  });
});

describe('policy declarations', () => {
  it('refuses at start-up a website policy whose path lacks the website parameter, and a website route without one', async () => {
    const { app } = await createTestApp();
    try {
      expect(() => app.get('/api/test/pages/:id', { config: { policy: { website: 'pages', level: 'view' } } }, async () => ({}))).toThrow(
        /no :websiteId/,
      );
      expect(() =>
        app.get('/api/test/:websiteId/pages', { config: { policy: { website: 'seo' }, website: { from: 'path', param: 'siteId' } } }, async () => ({})),
      ).toThrow(/no :siteId/);
      expect(() => app.get('/api/test/:websiteId/open', { config: { policy: 'owner', website: { from: 'path', param: 'websiteId' } } }, async () => ({}))).toThrow(
        /no website policy/,
      );
    } finally {
      await app.close();
    }
  });
});
