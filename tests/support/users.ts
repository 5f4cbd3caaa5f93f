import type { RoleInfo } from '../../src/contract/permissions';
import { uuidv7 } from '../../src/contract/uuid';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Store } from '../../src/server/store/open';
import { teamRoles, users } from '../../src/server/store/schema';

export interface SeedUser {
  type: 'admin' | 'user' | 'partner' | 'teammember';
  email: string;
  username: string;
  password: string;
  firstName?: string;
  lastName?: string;
  language?: 'en' | 'de';
  verified?: boolean;
  status?: 'active' | 'suspended';
  /** Team members: their website and role. */
  websiteId?: string;
  role?: { name: string } & RoleInfo;
}

/** Inserts a user as the users module will; team members get their role row too. */
export async function seedUser(store: Store, user: SeedUser) {
  const websiteId = user.type === 'teammember' ? (user.websiteId ?? uuidv7()) : null;
  let teamRoleId: string | null = null;
  if (user.role && websiteId) {
    const [role] = await store.db
      .insert(teamRoles)
      .values({ websiteId, name: user.role.name, permissions: user.role.permissions, cmsPermissions: user.role.cmsPermissions })
      .returning();
    teamRoleId = role!.id;
  }
  const [row] = await store.db
    .insert(users)
    .values({
      type: user.type,
      email: user.email,
      username: user.username,
      passwordHash: await hashPassword(user.password),
      verified: user.verified ?? true,
      status: user.status ?? 'active',
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      language: user.language ?? 'en',
      websiteId,
      teamRoleId,
    })
    .returning();
  return row!;
}
