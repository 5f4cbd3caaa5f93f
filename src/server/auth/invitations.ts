import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { randomInt } from 'node:crypto';
import { messages } from '../../contract/messages';
import type { ServerContext } from '../context';
import type { ResourceHooks, Tx } from '../crud';
import { HttpError } from '../http/errors';
import { loadSettings } from '../routes/white-label';
import type { Db } from '../store/open';
import { users } from '../store/schema';
import { INVITE_TTL_MS, issuePin } from './challenges';
import { mailPin, type PinMail } from './mails';
import { hashPassword } from './passwords';
import { newToken } from './secrets';
import { revokeAllSessions, type UserRow } from './sessions';

// How an account someone else makes comes to life (ADR 011), for every kind of account an admin or
// a website's team makes: it is stored with a password nobody knows and mailed a PIN to choose one
// with, in the same transaction, so a mail that cannot be sent leaves no account behind.

type Mailing = Pick<ServerContext, 'mailer' | 'clock' | 'secret' | 'publicUrl'>;

/**
 * Where the mail sends its reader: the PIN step of the password reset, their address filled in.
 * On PUBLIC_URL, never on the request's Origin or Host: whoever sends those would choose where a
 * mail carrying a PIN points.
 */
function pinLink(publicUrl: string, email: string): string {
  return `${publicUrl}/forgot-password?${new URLSearchParams({ email, pin: 'mailed' })}`;
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

/** Mails the user a PIN to choose a password with, valid for days: the invitation, or a reset an admin asked for. 503 when no mail went out. */
export async function mailPasswordPin({ mailer, clock, secret, publicUrl }: Mailing, tx: Tx | Db, request: FastifyRequest, user: UserRow, mail: PinMail) {
  const pin = await issuePin({ db: tx as Db, secret, now: clock() }, user.id, 'reset', INVITE_TTL_MS);
  try {
    await mailPin(tx as Db, mailer, user, mail, pin, pinLink(publicUrl, user.email));
  } catch (err) {
    request.log.error({ err }, 'mailing a password PIN failed');
    throw new HttpError(503, messages.inviteMailFailed);
  }
}

/**
 * The hooks of an entry whose rows are invited accounts (owners, admins, team members): a new one
 * gets a username (unless given), the default language (unless given), an unknowable password and
 * no proof of its address, and its invitation; a changed address must be proven again; a suspended
 * account is signed out everywhere at once.
 */
export function invitationHooks(ctx: Mailing): ResourceHooks {
  return {
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
    afterCreate: (row, { tx, request }) => mailPasswordPin(ctx, tx, request, row as unknown as UserRow, 'invite'),
    beforeUpdate(changes) {
      // Empty means "choose for me" on a create; on an update it means "leave it".
      const kept = Object.fromEntries(Object.entries(changes).filter(([key, value]) => !((key === 'username' || key === 'language') && value === '')));
      // A new address is not proven until a PIN mailed to it comes back (the next sign-in).
      return typeof kept.email === 'string' ? { ...kept, verified: false } : kept;
    },
    async afterUpdate(row, { tx }) {
      // Suspended means signed out everywhere at once, not at the sessions' end.
      if (row.status !== 'active') await revokeAllSessions(tx as unknown as Db, row.id, ctx.clock());
    },
  };
}
