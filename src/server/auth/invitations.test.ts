// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { seedCast, type Cast } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { buildApp } from '../app';

/*
 * Issue 17, defect 10: a mail's link leads to PUBLIC_URL, whatever Origin or Host the request
 * that made the mail carried, so nobody can send a PIN next to a link to their own host.
 */

const PUBLIC_URL = 'https://cms.agency.example';
const forged = { origin: 'https://evil.example', host: 'evil.example', 'x-forwarded-host': 'evil.example' };

describe.each(storeKinds)('links in mails (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let mailer: ReturnType<typeof memoryMailer>;
  let cast: Cast;

  beforeAll(async () => {
    const store = await createTestStore(kind);
    mailer = memoryMailer();
    app = await buildApp({ config: testAppConfig({ publicUrl: PUBLIC_URL }), store, mailer, logger: false });
    cast = await seedCast(store);
  });
  afterAll(() => app.close());

  /** The one link in the newest mail to `to`. */
  function linkTo(to: string): URL {
    const text = mailer.sent.filter((mail) => mail.to === to).at(-1)?.text ?? '';
    const links = text.match(/https?:\/\/\S+/g) ?? [];
    expect(links).toHaveLength(1);
    return new URL(links[0]!);
  }

  const send = (headers: Record<string, string>, url: string, payload?: object) => app.inject({ method: 'POST', url, payload, headers: { ...headers, ...forged } });

  it('an invitation an admin sends with a forged Origin and Host still leads to PUBLIC_URL', async () => {
    const email = 'invited.owner@example.test';
    const res = await send(cast.headers.admin, '/api/users', { email, type: 'user' });
    expect(res.statusCode, res.body).toBe(201);
    const link = linkTo(email);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe('/forgot-password');
    expect(link.searchParams.get('email')).toBe(email);
  });

  it('so does the invitation of a team member and a reset an admin asks for', async () => {
    const member = 'invited.member@example.test';
    const roles = await app.inject({ url: `/api/team-roles/${cast.site.A}`, headers: cast.headers.ownerA });
    const roleId = (roles.json().data as { _id: string }[])[0]!._id;
    const invited = await send(cast.headers.ownerA, `/api/team/members/${cast.site.A}`, { email: member, teamRoleId: roleId });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(linkTo(member).origin).toBe(PUBLIC_URL);

    const reset = await send(cast.headers.admin, `/api/users/${cast.ids.ownerB}/reset-password`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(linkTo('owner-b@example.test').origin).toBe(PUBLIC_URL);
  });
});
