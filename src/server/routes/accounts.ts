import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { successSchema } from '../../contract/envelope';
import { messages } from '../../contract/messages';
import { admins, UserOptionSchema, users as usersEntry, WebsiteUserSchema } from '../../contract/resources/accounts';
import { INVITE_TTL_MS, issuePin } from '../auth/challenges';
import { mailPin, type PinMail } from '../auth/mails';
import { hashPassword } from '../auth/passwords';
import { newToken } from '../auth/secrets';
import { revokeAllSessions, type UserRow } from '../auth/sessions';
import type { ServerContext } from '../context';
import { registerResource, type ResourceHooks, type Tx } from '../crud';
import { HttpError } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import { caller } from '../policy';
import type { Db } from '../store/open';
import { partners, teamRoles, users, websites } from '../store/schema';
import { loadSettings } from './white-label';

/** Owners and partners are one part of the users table, admins another; team members belong to their website's team. */
const ownerRows = inArray(users.type, ['user', 'partner']);
const adminRows = eq(users.type, 'admin');
/** Mails an admin may have sent to one account per hour, as the sign-in pages allow for themselves. */
const mailsPerAccount = { max: 5, windowMs: 3600_000 };
/** Any number: it only has to be the same in every transaction that may remove an admin. */
const ADMIN_LOCK = 7_110_001;

/**
 * Where the mail sends its reader: the PIN step of the password reset, their address filled in.
 * The admin's own page asked, so its origin is where the app is.
 */
function pinLink(request: FastifyRequest, email: string): string {
  const origin = /^https?:\/\/[^/\s]+$/.test(request.headers.origin ?? '') ? request.headers.origin! : `${request.protocol}://${request.host}`;
  return `${origin}/forgot-password?${new URLSearchParams({ email, pin: 'mailed' })}`;
}

/** A username for an account created without one: its email's name, numbered when taken. */
async function freeUsername(tx: Tx, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^\w.-]/g, '').slice(0, 40).padEnd(3, '0');
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate = attempt === 0 ? base : `${base}${randomInt(1000, 10_000)}`;
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.username})`, candidate.toLowerCase()));
    if (!taken) return candidate;
  }
  return `${base}${newToken().slice(0, 8).replace(/[^\w]/g, '0')}`;
}

export async function accountRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store, mailer, clock, secret } = ctx;
  const db = store.db;
  const route = app.withTypeProvider<ZodTypeProvider>();

  /** Mails the user a PIN to choose a password with, valid for days: the invitation, or a reset an admin asked for. */
  async function mailPasswordPin(tx: Tx | Db, request: FastifyRequest, user: UserRow, mail: PinMail) {
    const pin = await issuePin({ db: tx as Db, secret, now: clock() }, user.id, 'reset', INVITE_TTL_MS);
    try {
      await mailPin(tx as Db, mailer, user, mail, pin, pinLink(request, user.email));
    } catch (err) {
      request.log.error({ err }, 'mailing a password PIN failed');
      throw new HttpError(503, messages.inviteMailFailed);
    }
  }

  /** Refuses a change that leaves no active admin, or that an admin makes to their own standing. */
  async function keepAnAdmin(tx: Tx, request: FastifyRequest, changed: UserRow, removed: boolean) {
    const stillAdmin = !removed && changed.type === 'admin' && changed.status === 'active';
    if (changed.id === caller(request).user.id && !stillAdmin) throw new HttpError(400, messages.ownAdminStanding);
    // One at a time: two admins demoting each other at once must not both succeed.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK})`);
    const [active] = await tx.select({ n: count() }).from(users).where(and(adminRows, eq(users.status, 'active')));
    if ((active?.n ?? 0) === 0) throw new HttpError(400, messages.lastAdmin);
  }

  const accountHooks = (guardAdmins: boolean): ResourceHooks => ({
    async beforeCreate(values, { tx }) {
      const settings = await loadSettings(tx as unknown as Db);
      return {
        ...values,
        username: values.username || (await freeUsername(tx, String(values.email))),
        language: values.language || settings.defaultLanguage,
        // Nobody knows it: the account gets its password through the invitation.
        passwordHash: await hashPassword(newToken()),
        verified: false,
      };
    },
    afterCreate: (row, { tx, request }) => mailPasswordPin(tx, request, row as unknown as UserRow, 'invite'),
    beforeUpdate(changes) {
      // Empty means "choose for me" on a create; on an update it means "leave it".
      const kept = Object.fromEntries(Object.entries(changes).filter(([key, value]) => !((key === 'username' || key === 'language') && value === '')));
      // A new address is not proven until a PIN mailed to it comes back (the next sign-in).
      return typeof kept.email === 'string' ? { ...kept, verified: false } : kept;
    },
    async afterUpdate(row, { tx, request }) {
      // Suspended means signed out everywhere at once, not at the sessions' end.
      if (row.status !== 'active') await revokeAllSessions(tx as unknown as Db, row.id, clock());
      if (guardAdmins) await keepAnAdmin(tx, request, row as unknown as UserRow, false);
    },
    async afterDelete(row, { tx, request }) {
      if (guardAdmins) await keepAnAdmin(tx, request, row as unknown as UserRow, true);
    },
  });
  registerResource(app, ctx, usersEntry, users, accountHooks(false), { rows: ownerRows });
  registerResource(app, ctx, admins, users, accountHooks(true), { rows: adminRows });

  route.get(
    '/api/users/dropdown',
    {
      config: { policy: 'admin' },
      schema: {
        querystring: z.object({ search: z.string().max(200).optional(), type: z.enum(['user', 'partner']).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: successSchema(z.array(UserOptionSchema)) },
      },
    },
    async (request) => {
      const { search, type, limit } = request.query;
      const like = search ? `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const rows = await db
        .select({ _id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type })
        .from(users)
        .where(
          and(
            ownerRows,
            type ? eq(users.type, type) : undefined,
            like ? or(ilike(users.email, like), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, like)) : undefined,
          ),
        )
        .orderBy(asc(users.email))
        .limit(limit);
      return ok(rows);
    },
  );

  route.post(
    '/api/users/:id/reset-password',
    { config: { policy: 'admin' }, schema: { params: z.object({ id: z.string() }), response: { 200: successSchema(z.object({ email: z.string() })) } } },
    async (request, reply) => {
      const id = request.params.id;
      const [user] = z.uuid().safeParse(id).success ? await db.select().from(users).where(and(eq(users.id, id), ownerRows)) : [];
      if (!user) throw new HttpError(404, messages.notFound);
      await enforce(db, reply, [[`mail:${user.id}`, mailsPerAccount]], clock());
      await mailPasswordPin(db, request, user, 'adminReset');
      return ok({ email: user.email }, { message: request.t({ ...messages.resetMailed, values: { email: user.email } }) });
    },
  );

  route.get(
    '/api/websites/:id/users',
    { config: { policy: { website: 'team' }, website: { from: 'path', param: 'id' } }, schema: { params: z.object({ id: z.string() }), response: { 200: successSchema(z.array(WebsiteUserSchema)) } } },
    async (request) => {
      const websiteId = request.website!.id;
      const person = { _id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, type: users.type };
      const [owner, partner, team] = await Promise.all([
        db.select(person).from(websites).innerJoin(users, eq(users.id, websites.ownerId)).where(eq(websites.id, websiteId)),
        db.select(person).from(websites).innerJoin(partners, eq(partners.id, websites.partnerId)).innerJoin(users, eq(users.id, partners.ownerId)).where(eq(websites.id, websiteId)),
        db
          .select({ ...person, role: teamRoles.name })
          .from(users)
          .leftJoin(teamRoles, and(eq(teamRoles.id, users.teamRoleId), eq(teamRoles.websiteId, users.websiteId)))
          .where(and(eq(users.websiteId, websiteId), eq(users.type, 'teammember')))
          .orderBy(asc(users.email)),
      ]);
      return ok([
        ...owner.map((row) => ({ ...row, relation: 'owner' as const, role: null })),
        ...partner.map((row) => ({ ...row, relation: 'partner' as const, role: null })),
        ...team.map((row) => ({ ...row, relation: 'team' as const })),
      ]);
    },
  );
}
