import { and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { messages } from '../../contract/messages';
import { admins, listUserOptions, listWebsiteUsers, resetUserPassword, users as usersEntry } from '../../contract/resources/accounts';
import { registerAction } from '../action';
import { invitationHooks, mailPasswordPin } from '../auth/invitations';
import type { UserRow } from '../auth/sessions';
import type { ServerContext } from '../context';
import { composeHooks, registerResource, type ResourceHooks, type Tx } from '../crud';
import { HttpError } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import { caller } from '../policy';
import { partners, teamRoles, users, websites } from '../store/schema';

/** Owners and partners are one part of the users table, admins another; team members belong to their website's team. */
const OWNER_TYPES = ['user', 'partner'] as const;
const ownerRows = inArray(users.type, [...OWNER_TYPES]);
const adminRows = eq(users.type, 'admin');
/** Mails an admin may have sent to one account per hour, as the sign-in pages allow for themselves. */
const mailsPerAccount = { max: 5, windowMs: 3600_000 };
/** Any number: it only has to be the same in every transaction that may remove an admin. */
const ADMIN_LOCK = 7_110_001;

/** Refuses a change that leaves no active admin, or that an admin makes to their own standing. */
async function keepAnAdmin(tx: Tx, request: FastifyRequest, changed: UserRow, removed: boolean) {
  const stillAdmin = !removed && changed.type === 'admin' && changed.status === 'active';
  if (changed.id === caller(request).user.id && !stillAdmin) throw new HttpError(400, messages.ownAdminStanding);
  // One at a time: two admins demoting each other at once must not both succeed.
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK})`);
  const [active] = await tx.select({ n: count() }).from(users).where(and(adminRows, eq(users.status, 'active')));
  if ((active?.n ?? 0) === 0) throw new HttpError(400, messages.lastAdmin);
}

export async function accountRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store, clock } = ctx;
  const db = store.db;

  const invited = invitationHooks(ctx);
  const adminGuard: ResourceHooks = {
    afterUpdate: (row, { tx, request }) => keepAnAdmin(tx, request, row as unknown as UserRow, false),
    afterDelete: (row, { tx, request }) => keepAnAdmin(tx, request, row as unknown as UserRow, true),
  };
  registerResource(app, ctx, usersEntry, users, invited, { rows: { column: 'type', in: OWNER_TYPES } });
  registerResource(app, ctx, admins, users, composeHooks(invited, adminGuard), { rows: { column: 'type', in: ['admin'] } });

  registerAction(app, listUserOptions, async ({ query }) => {
    const { search, type, limit } = query;
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
  });

  registerAction(app, resetUserPassword, async ({ params: { id } }, request, reply) => {
    const [user] = z.uuid().safeParse(id).success ? await db.select().from(users).where(and(eq(users.id, id), ownerRows)) : [];
    if (!user) throw new HttpError(404, messages.notFound);
    await enforce(db, reply, [[`mail:${user.id}`, mailsPerAccount]], clock());
    await mailPasswordPin(ctx, db, request, user, 'adminReset');
    return ok({ email: user.email }, { message: request.t({ ...messages.resetMailed, values: { email: user.email } }) });
  });

  registerAction(
    app,
    listWebsiteUsers,
    async (_input, request) => {
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
    { config: { website: { from: 'path', param: 'id' } } },
  );
}
