import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { changePassword, getProfile, listDevices, signOutDevice, updateProfile } from '../../contract/auth';
import { messages } from '../../contract/messages';
import { registerAction } from '../action';
import { describeDevice } from '../auth/device';
import { forgetDevices, forgetSessionDevice } from '../auth/known-devices';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { isLive, revokeAllSessions, revokeSession } from '../auth/sessions';
import { toAuthUser } from '../auth/users';
import type { ServerContext } from '../context';
import { fieldError, HttpError } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import { caller } from '../policy';
import { PG_UNIQUE_VIOLATION, pgError } from '../store/pg-errors';
import { sessions, users } from '../store/schema';

export async function profileRoutes(app: FastifyInstance, { store, clock }: ServerContext) {
  const db = store.db;
  registerAction(app, getProfile, (_input, request) => ok(toAuthUser(caller(request))));

  // Names, username and language only: type, role, verified and status are not the user's to set.
  registerAction(app, updateProfile, async ({ body }, request) => {
    const auth = caller(request);
    const { user } = auth;
    try {
      const [updated] = await db
        .update(users)
        .set({ ...body, version: user.version + 1, updatedAt: clock() })
        .where(eq(users.id, user.id))
        .returning();
      return ok(toAuthUser({ ...auth, user: updated! }), { message: request.t(messages.profileUpdated) });
    } catch (err) {
      // A field the user corrects in the form, like any validation error; 409 means a version conflict.
      if (pgError(err)?.code === PG_UNIQUE_VIOLATION) throw fieldError('body.username', messages.usernameTaken);
      throw err;
    }
  });

  registerAction(app, changePassword, async ({ body }, request, reply) => {
    const { user, session } = caller(request);
    await enforce(db, reply, [[`change-password:${user.id}`, { max: 10, windowMs: 15 * 60_000 }]], clock());
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) throw fieldError('body.currentPassword', messages.wrongCurrentPassword);
    const now = clock();
    await db.update(users).set({ passwordHash: await hashPassword(body.newPassword), updatedAt: now }).where(eq(users.id, user.id));
    await revokeAllSessions(db, user.id, now, session.id);
    // The other devices sign in as strangers now: one of them may be why the password changed.
    await forgetDevices(db, user.id, session.id);
    return ok(null, { message: request.t(messages.passwordChanged) });
  });

  registerAction(app, listDevices, async (_input, request) => {
    const { user, session: current } = caller(request);
    const now = clock();
    const rows = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
      .orderBy(desc(sessions.lastSeenAt));
    return ok(
      rows
        .filter((s) => isLive(s, now))
        .map((s) => {
          const { browser, os } = describeDevice(s.userAgent);
          const device =
            browser && os ? request.t(messages.deviceLabel, { browser, os }) : (browser ?? os ?? request.t(messages.unknownDevice));
          return {
            _id: s.id,
            device,
            ip: s.ip,
            createdAt: s.createdAt.toISOString(),
            lastSeenAt: s.lastSeenAt.toISOString(),
            current: s.id === current.id,
          };
        }),
    );
  });

  registerAction(app, signOutDevice, async ({ params }, request) => {
    const { user } = caller(request);
    // Another user's session id answers exactly like an unknown one.
    if (!(await revokeSession(db, user.id, params.id, clock()))) throw new HttpError(404, messages.notFound);
    // Signed out here means not known there either: its next sign-in counts as a stranger's.
    await forgetSessionDevice(db, user.id, params.id);
    return ok(null, { message: request.t(messages.deviceSignedOut) });
  });
}
