import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RoleInfo } from '../../src/contract/permissions';
import type { Store } from '../../src/server/store/open';
import { bearer, tokenFor } from './auth';
import { seedUser, seedWebsite } from './users';

/**
 * The people of the admin and owner area, on two websites: A (owned by ownerA, with a partner
 * record of `partner`) and B (ownerB's). Team members: `memberA` with every flag, `plainA` with
 * the CMS only, `memberB` with every flag on B.
 */
export const CAST = ['admin', 'ownerA', 'ownerB', 'partner', 'memberA', 'plainA', 'memberB'] as const;
export type Who = (typeof CAST)[number] | 'anonymous';

export const CAST_PASSWORD = 'cast password 1';

const flags = (permissions: Partial<RoleInfo['permissions']>) => ({ cms: false, seo: false, team: false, settings: false, ...permissions });

export interface Cast {
  ids: Record<(typeof CAST)[number], string>;
  site: { A: string; B: string };
  /** The partner record that ties `partner` to website A. */
  partnerRecordA: string;
  headers: Record<Who, Record<string, string>>;
}

export async function seedCast(store: Store): Promise<Cast> {
  const person = (type: 'admin' | 'user' | 'partner', name: string, firstName = '') =>
    seedUser(store, { type, email: `${name}@example.test`, username: name, password: CAST_PASSWORD, firstName });
  const admin = await person('admin', 'admin', 'Ada');
  const ownerA = await person('user', 'owner-a', 'Anna');
  const ownerB = await person('user', 'owner-b', 'Bernd');
  const partner = await person('partner', 'partner-p', 'Paula');
  const siteA = await seedWebsite(store, { ownerId: ownerA.id, partnerUserId: partner.id, name: 'Site A' });
  const siteB = await seedWebsite(store, { ownerId: ownerB.id, name: 'Site B' });
  const member = (name: string, websiteId: string, permissions: Partial<RoleInfo['permissions']>) =>
    seedUser(store, {
      type: 'teammember',
      email: `${name}@example.test`,
      username: name,
      password: CAST_PASSWORD,
      websiteId,
      role: { name: `Role of ${name}`, permissions: flags(permissions), cmsPermissions: { pages: 'manage' } },
    });
  const all = { cms: true, seo: true, team: true, settings: true };
  const memberA = await member('member-a', siteA.id, all);
  const plainA = await member('plain-a', siteA.id, { cms: true });
  const memberB = await member('member-b', siteB.id, all);
  const people = { admin, ownerA, ownerB, partner, memberA, plainA, memberB };
  const headers = { anonymous: {} } as Record<Who, Record<string, string>>;
  for (const [name, user] of Object.entries(people)) headers[name as Who] = bearer(await tokenFor(store, user.id));
  return {
    ids: Object.fromEntries(Object.entries(people).map(([name, user]) => [name, user.id])) as Cast['ids'],
    site: { A: siteA.id, B: siteB.id },
    partnerRecordA: siteA.partnerId!,
    headers,
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request as `who`: a JSON body or a prepared payload with its headers, and the version it was made from (If-Match). */
export function sender(app: FastifyInstance, headers: () => Record<Who, Record<string, string>>) {
  return (
    who: Who,
    method: Method,
    url: string,
    body?: object | { payload: Buffer; headers: Record<string, string> },
    version?: number,
  ): Promise<LightMyRequestResponse> => {
    const raw = body && 'payload' in body && Buffer.isBuffer(body.payload) ? (body as { payload: Buffer; headers: Record<string, string> }) : null;
    const options: InjectOptions = {
      method,
      url,
      payload: raw ? raw.payload : (body as InjectOptions['payload']),
      headers: { ...headers()[who], ...raw?.headers, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) },
    };
    return app.inject(options);
  };
}

export const data = (res: LightMyRequestResponse) => res.json().data;
/** A UUID nobody has. */
export const UNKNOWN_ID = '0195f0b4-0000-7000-8000-000000000000';
