// @vitest-environment node
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, lastPin, signIn, tokenFor } from '../../../tests/support/auth';
import { data, seedCast, UNKNOWN_ID, type Cast, type Method } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import type { RoleInfo } from '../../contract/permissions';
import { sessions, teamRoles, users } from '../store/schema';

/*
 * Issue 12, a website's team on PGlite and PostgreSQL: roles and members on the spec's paths,
 * members invited by mail and signing in like everyone, role changes and removals applying on the
 * member's next call, and no escalation by a member who runs the team.
 */

type Headers = Record<string, string>;
const PASSWORD = 'chosen password 1';
const NONE = { cms: false, seo: false, team: false, settings: false };
const grants = (permissions: Partial<RoleInfo['permissions']>, cmsPermissions: RoleInfo['cmsPermissions'] = {}): RoleInfo => ({ permissions: { ...NONE, ...permissions }, cmsPermissions });

/** A member's change refused as beyond what they may do (400, translated). */
function refused(res: { statusCode: number; json(): { message: string } }, message = messages.beyondOwnRole.message) {
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toBe(message);
}

describe.each(storeKinds)('the team (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  const call = (headers: Headers, method: Method, url: string, body?: object, version?: number) =>
    test.app.inject({ method, url, payload: body, headers: { ...headers, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) } });
  const owner = () => cast.headers.ownerA;
  const roles = () => `/api/team-roles/${cast.site.A}`;
  const role = (id: string) => `/api/team-roles/${cast.site.A}/role/${id}`;
  const members = () => `/api/team/members/${cast.site.A}`;
  const member = (id: string) => `/api/team/members/${cast.site.A}/${id}`;
  const made = async (url: string, body: object, headers = owner()) => {
    const res = await call(headers, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number } & Record<string, unknown>;
  };
  const newRole = (name: string, info: RoleInfo, headers = owner()) => made(`${roles()}/role`, { name, ...info }, headers);
  /** A member of website A with its own role, signed in. */
  const seedMember = async (name: string, info: RoleInfo) => {
    const user = await seedUser(test.store, { type: 'teammember', email: `${name}@team.example.test`, username: name, password: PASSWORD, websiteId: cast.site.A, role: { name: `Role of ${name}`, ...info } });
    return { user, headers: bearer(await tokenFor(test.store, user.id)) };
  };
  const userCount = async () => (await test.store.db.select({ n: count() }).from(users))[0]!.n;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
  });
  afterAll(() => test.app.close());

  describe('roles', () => {
    it('are made, listed, read, changed and deleted on the spec’s paths, per website', async () => {
      const created = await newRole('Editors', grants({ cms: true }, { pages: 'edit', posts: 'manage' }));
      expect(created).toMatchObject({ name: 'Editors', permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { pages: 'edit', posts: 'manage' } });
      expect((data(await call(owner(), 'GET', `${roles()}?search=edit`)) as { name: string }[]).map((row) => row.name)).toEqual(['Editors']);
      expect(data(await call(owner(), 'GET', role(created._id)))).toEqual(created);
      const changed = await call(owner(), 'PUT', role(created._id), { cmsPermissions: { pages: 'view' } }, created.version);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(data(changed)).toMatchObject({ cmsPermissions: { pages: 'view' }, permissions: { cms: true } });
      // The same name on another website is another role.
      await made(`/api/team-roles/${cast.site.B}/role`, { name: 'Editors', ...grants({}) }, cast.headers.ownerB);
      expect((await call(cast.headers.ownerB, 'GET', role(created._id))).statusCode).toBe(404);
      expect((await call(cast.headers.memberB, 'GET', roles())).statusCode).toBe(404);
      expect((await call(owner(), 'DELETE', role(created._id), undefined, 2)).statusCode).toBe(200);
      expect((await call(owner(), 'GET', role(created._id))).statusCode).toBe(404);
    });

    it('refuses the name “admin” in any case, and a name the website has already, as field errors', async () => {
      for (const name of ['admin', ' Admin ', 'ADMIN']) {
        const res = await call(owner(), 'POST', `${roles()}/role`, { name, ...grants({}) });
        expect(res.statusCode, name).toBe(400);
        expect(res.json().errors).toEqual([{ path: 'body.name', message: expect.any(String) }]);
        // The catalog's words (its id until the catalog is compiled), not Zod's "Invalid string".
        expect([messages.roleNameReserved.message, messages.roleNameReserved.id]).toContain(res.json().errors[0].message);
      }
      await newRole('Kitchen', grants({}));
      const twice = await call(owner(), 'POST', `${roles()}/role`, { name: 'KITCHEN', ...grants({}) });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().errors).toEqual([{ path: 'body.name', message: messages.valueTaken.message }]);
      // "Administrators" is a name like any other.
      await newRole('Administrators', grants({}));
    });

    it('refuses a level or flag that does not exist', async () => {
      expect((await call(owner(), 'POST', `${roles()}/role`, { name: 'Odd', permissions: NONE, cmsPermissions: { pages: 'owner' } })).statusCode).toBe(400);
      expect((await call(owner(), 'POST', `${roles()}/role`, { name: 'Odd', permissions: NONE, cmsPermissions: { blog: 'view' } })).statusCode).toBe(400);
      expect((await call(owner(), 'POST', `${roles()}/role`, { name: 'Odd', permissions: { cms: true } })).statusCode).toBe(400);
    });
  });

  describe('members', () => {
    let editors = '';
    beforeAll(async () => {
      editors = (await newRole('Content editors', grants({ cms: true }, { pages: 'view' })))._id;
    });

    it('are invited by mail, choose a password with the PIN and sign in with password and PIN like everyone', async () => {
      const email = 'tina.team@example.test';
      const res = await call(owner(), 'POST', members(), { email, firstName: 'Tina', lastName: 'Team', teamRoleId: editors });
      expect(res.statusCode, res.body).toBe(201);
      const created = data(res);
      expect(created).toMatchObject({ email, firstName: 'Tina', teamRoleId: editors, status: 'active', verified: false, language: 'en' });
      expect(res.body).not.toMatch(/password|argon|username|"type"/i);
      expect(await test.store.db.select({ type: users.type, websiteId: users.websiteId }).from(users).where(eq(users.id, created._id))).toEqual([{ type: 'teammember', websiteId: cast.site.A }]);

      const pin = lastPin(test.mailer.sent, email);
      const verified = await test.app.inject({ method: 'POST', url: '/api/auth/verify-reset-pin', payload: { email, pin } });
      expect(verified.statusCode, verified.body).toBe(200);
      const reset = await test.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { tempToken: verified.json().data.tempToken, pin, newPassword: PASSWORD } });
      expect(reset.statusCode, reset.body).toBe(200);
      const token = await signIn(test.app, test.mailer.sent, { email, password: PASSWORD });
      const profile = data(await test.app.inject({ url: '/api/profile', headers: bearer(token) }));
      expect(profile).toMatchObject({ type: 'teammember', websiteId: cast.site.A, role: 'Content editors', roleInfo: { permissions: { cms: true }, cmsPermissions: { pages: 'view' } } });
      expect((await test.app.inject({ url: `/api/cms/pages/${cast.site.A}`, headers: bearer(token) })).statusCode).toBe(200);

      const listed = data(await call(owner(), 'GET', `${members()}?search=tina`)) as { email: string; verified: boolean }[];
      expect(listed).toEqual([expect.objectContaining({ email, verified: true })]);
    });

    it('lists only the website’s own team, never its owner, partner or another website’s members', async () => {
      const emails = (data(await call(owner(), 'GET', `${members()}?limit=100`)) as { email: string }[]).map((row) => row.email);
      expect(emails).toEqual(expect.arrayContaining(['member-a@example.test', 'plain-a@example.test']));
      expect(emails.filter((email) => /owner|partner|member-b|admin/.test(email))).toEqual([]);
      expect((await call(owner(), 'GET', member(cast.ids.ownerA))).statusCode).toBe(404);
      expect((await call(owner(), 'GET', member(cast.ids.memberB))).statusCode).toBe(404);
      expect((await call(cast.headers.ownerB, 'GET', member(cast.ids.memberA))).statusCode).toBe(404);
      expect(data(await call(owner(), 'GET', `${members()}?teamRoleId=${editors}`))).toHaveLength(1);
    });

    it('refuses an address any account has as a field error, creating nothing and mailing nobody', async () => {
      const before = [await userCount(), test.mailer.sent.length];
      for (const email of ['OWNER-A@example.test', 'admin@example.test', 'member-b@example.test', 'tina.team@example.test']) {
        const res = await call(owner(), 'POST', members(), { email });
        expect(res.statusCode, email).toBe(400);
        expect(res.json().errors).toEqual([{ path: 'body.email', message: messages.valueTaken.message }]);
      }
      expect([await userCount(), test.mailer.sent.length]).toEqual(before);
    });

    it('refuses another website’s role, or none that exists, as a field error', async () => {
      const [foreign] = await test.store.db.select({ id: teamRoles.id }).from(teamRoles).where(eq(teamRoles.websiteId, cast.site.B));
      const before = await userCount();
      for (const teamRoleId of [foreign!.id, UNKNOWN_ID]) {
        const res = await call(owner(), 'POST', members(), { email: `someone.${teamRoleId.slice(-4)}@example.test`, teamRoleId });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors[0].path).toBe('body.teamRoleId');
        expect(res.json().errors[0].message).toBe(messages.unknownReference.message);
      }
      const plain = data(await call(owner(), 'GET', member(cast.ids.plainA)));
      const moved = await call(owner(), 'PUT', member(cast.ids.plainA), { teamRoleId: foreign!.id }, plain.version);
      expect(moved.json().errors[0].path).toBe('body.teamRoleId');
      expect(await userCount()).toBe(before);
    });

    it('stores nothing when the invitation cannot be mailed (503)', async () => {
      const working = test.mailer.send;
      test.mailer.send = async () => {
        throw new Error('SMTP is down');
      };
      try {
        const res = await call(owner(), 'POST', members(), { email: 'unlucky.member@example.test', teamRoleId: editors });
        expect(res.statusCode).toBe(503);
        expect(res.json().message).toBe(messages.inviteMailFailed.message);
      } finally {
        test.mailer.send = working;
      }
      expect(await test.store.db.select().from(users).where(eq(users.email, 'unlucky.member@example.test'))).toEqual([]);
    });

    it('never takes a type, website, password or proof of address from a body', async () => {
      const res = await call(owner(), 'POST', members(), { email: 'sneaky.member@example.test', type: 'admin', websiteId: cast.site.B, verified: true, passwordHash: 'x', username: 'root' });
      expect(res.statusCode, res.body).toBe(201);
      const [stored] = await test.store.db.select().from(users).where(eq(users.email, 'sneaky.member@example.test'));
      expect(stored).toMatchObject({ type: 'teammember', websiteId: cast.site.A, verified: false, username: 'sneaky.member' });
      expect(stored!.passwordHash).not.toBe('x');
    });
  });

  describe('a change of role or membership', () => {
    it('applies on the member’s next call: a new level, a deleted role, a suspension, a removal', async () => {
      const { user, headers } = await seedMember('next-call', grants({ cms: true }, { pages: 'view' }));
      const pages = `/api/cms/pages/${cast.site.A}`;
      expect((await call(headers, 'GET', pages)).statusCode).toBe(200);
      expect((await call(headers, 'POST', pages, { title: 'Hello' })).statusCode).toBe(403);

      const roleId = user.teamRoleId!;
      expect((await call(owner(), 'PUT', role(roleId), { cmsPermissions: { pages: 'manage' } }, 1)).statusCode).toBe(200);
      expect((await call(headers, 'POST', pages, { title: 'Hello' })).statusCode).toBe(201);
      expect((await call(headers, 'GET', `/api/seo/website/${cast.site.A}`)).statusCode).toBe(403);
      expect((await call(owner(), 'PUT', role(roleId), { permissions: { ...NONE, cms: true, seo: true } }, 2)).statusCode).toBe(200);
      expect((await call(headers, 'GET', `/api/seo/website/${cast.site.A}`)).statusCode).not.toBe(403);

      // A deleted role leaves its members on the website with nothing open.
      expect((await call(owner(), 'DELETE', role(roleId), undefined, 3)).statusCode).toBe(200);
      expect((await call(headers, 'GET', pages)).statusCode).toBe(403);
      expect(data(await call(owner(), 'GET', member(user.id)))).toMatchObject({ teamRoleId: null });
      expect((await call(headers, 'GET', `/api/websites/${cast.site.A}`)).statusCode).toBe(200);

      const suspended = await call(owner(), 'PUT', member(user.id), { status: 'suspended' }, 1);
      expect(suspended.statusCode, suspended.body).toBe(200);
      expect((await call(headers, 'GET', `/api/websites/${cast.site.A}`)).statusCode).toBe(401);
      expect(await test.store.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([expect.objectContaining({ revokedAt: expect.any(Date) })]);
    });

    it('signs a removed member out at once', async () => {
      const { user, headers } = await seedMember('removed', grants({ cms: true }, { pages: 'view' }));
      expect((await call(headers, 'GET', `/api/cms/pages/${cast.site.A}`)).statusCode).toBe(200);
      expect((await call(owner(), 'DELETE', member(user.id), undefined, 1)).statusCode).toBe(200);
      expect((await call(headers, 'GET', `/api/cms/pages/${cast.site.A}`)).statusCode).toBe(401);
      expect(await test.store.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    });
  });

  describe('no escalation by a member who runs the team', () => {
    const leadGrants = grants({ cms: true, team: true, seo: true }, { pages: 'edit', posts: 'manage' });
    let lead: Awaited<ReturnType<typeof seedMember>>;
    let managers = '';
    let writers = '';

    beforeAll(async () => {
      lead = await seedMember('lead', leadGrants);
      managers = (await newRole('Managers', grants({ cms: true, team: true, seo: true, settings: true }, { pages: 'manage', posts: 'manage' })))._id;
      writers = (await newRole('Writers', grants({ cms: true }, { posts: 'edit' })))._id;
    });

    it('makes and changes roles only within their own', async () => {
      refused(await call(lead.headers, 'POST', `${roles()}/role`, { name: 'Too much', ...grants({ cms: true, settings: true }) }));
      refused(await call(lead.headers, 'POST', `${roles()}/role`, { name: 'Too much', ...grants({ cms: true }, { pages: 'manage' }) }));
      refused(await call(lead.headers, 'POST', `${roles()}/role`, { name: 'Too much', ...grants({ cms: true }, { media: 'view' }) }));
      const own = await newRole('Helpers', grants({ cms: true, seo: true }, { pages: 'edit', posts: 'view' }), lead.headers);
      refused(await call(lead.headers, 'PUT', role(own._id), { cmsPermissions: { pages: 'manage' } }, own.version));
      expect((await call(lead.headers, 'PUT', role(own._id), { cmsPermissions: { posts: 'manage' } }, own.version)).statusCode).toBe(200);
      // A role above theirs stays as it is, even to be lowered within theirs, or removed.
      refused(await call(lead.headers, 'PUT', role(managers), grants({ cms: true }), 1));
      refused(await call(lead.headers, 'DELETE', role(managers), undefined, 1));
      expect(data(await call(owner(), 'GET', role(managers)))).toMatchObject({ version: 1, permissions: { settings: true } });
      // Their own role may shrink, never grow.
      refused(await call(lead.headers, 'PUT', role(lead.user.teamRoleId!), { cmsPermissions: { pages: 'manage', posts: 'manage' } }, 1));
      // Owners are not held to any of it.
      expect((await call(owner(), 'PUT', role(managers), { cmsPermissions: { media: 'manage' } }, 1)).statusCode).toBe(200);
    });

    it('assigns only roles within their own, and leaves alone members above them and themselves', async () => {
      refused(await call(lead.headers, 'POST', members(), { email: 'boss@team.example.test', teamRoleId: managers }));
      const writer = await made(members(), { email: 'writer@team.example.test', teamRoleId: writers }, lead.headers);
      refused(await call(lead.headers, 'PUT', member(writer._id), { teamRoleId: managers }, writer.version));
      const boss = await made(members(), { email: 'boss@team.example.test', teamRoleId: managers });
      refused(await call(lead.headers, 'PUT', member(boss._id), { teamRoleId: writers }, boss.version));
      refused(await call(lead.headers, 'PUT', member(boss._id), { status: 'suspended' }, boss.version));
      refused(await call(lead.headers, 'DELETE', member(boss._id), undefined, boss.version));
      expect(data(await call(owner(), 'GET', member(boss._id)))).toMatchObject({ version: 1, teamRoleId: managers, status: 'active' });

      const self = member(lead.user.id);
      for (const [method, body] of [
        ['PUT', { teamRoleId: writers }],
        ['PUT', { status: 'suspended' }],
        ['DELETE', undefined],
      ] as const) {
        refused(await call(lead.headers, method, self, body, 1), messages.ownTeamStanding.message);
      }
      // Sending their own unchanged role and status along with a new name is fine.
      const renamed = await call(lead.headers, 'PUT', self, { firstName: 'Lea', teamRoleId: lead.user.teamRoleId, status: 'active' }, 1);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await call(lead.headers, 'DELETE', member(writer._id), undefined, writer.version)).statusCode).toBe(200);
    });
  });
});
