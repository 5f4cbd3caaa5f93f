import { eq, or, sql } from 'drizzle-orm';
import type { AuthUser } from '../../contract/auth';
import { toInterfaceLanguage } from '../../contract/languages';
import type { Db } from '../store/open';
import { users } from '../store/schema';
import type { Authenticated, UserRow } from './sessions';

const normalized = (value: string) => value.trim().toLowerCase();

/** Email or username, either case: the index on lower(...) answers both. */
export async function findByLogin(db: Db, emailOrUsername: string): Promise<UserRow | undefined> {
  const value = normalized(emailOrUsername);
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(sql`lower(${users.email})`, value), eq(sql`lower(${users.username})`, value)));
  return user;
}

export async function findByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(sql`lower(${users.email})`, normalized(email)));
  return user;
}

/**
 * The user as the client stores it (spec §3): no hash, no secret, the role spelled out. Built
 * from what `authenticate` read, so the client is shown exactly the role the server enforces.
 */
export function toAuthUser({ user, roleInfo, roleName }: Authenticated): AuthUser {
  return {
    _id: user.id,
    email: user.email,
    username: user.username,
    type: user.type,
    role: user.type === 'admin' ? 'admin' : roleName,
    verified: user.verified,
    status: user.status,
    firstName: user.firstName,
    lastName: user.lastName,
    language: toInterfaceLanguage(user.language),
    websiteId: user.type === 'teammember' ? user.websiteId : null,
    roleInfo,
  };
}
