import type { RoleInfo } from '../../src/contract/permissions';
import { uuidv7 } from '../../src/contract/uuid';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Store } from '../../src/server/store/open';
import { partners, teamRoles, users, websites } from '../../src/server/store/schema';

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

/** A partner record of the account `ownerId`. */
export async function seedPartner(store: Store, partner: { ownerId: string; name?: string; type?: 'standard' | 'agency' | 'reseller' }) {
  const [row] = await store.db
    .insert(partners)
    .values({ name: partner.name ?? 'Partner', ownerId: partner.ownerId, type: partner.type ?? 'standard' })
    .returning();
  return row!;
}

/** A website owned by `ownerId`, optionally with a partner record of the account `partnerUserId`. */
export async function seedWebsite(store: Store, website: { ownerId: string; partnerUserId?: string; name?: string }) {
  const partnerId = website.partnerUserId ? (await seedPartner(store, { ownerId: website.partnerUserId })).id : null;
  const [row] = await store.db
    .insert(websites)
    .values({ name: website.name ?? 'Website', ownerId: website.ownerId, partnerId })
    .returning();
  return row!;
}

/** A team member without a website of their own gets one, owned by a fresh owner. */
async function someWebsite(store: Store): Promise<string> {
  const tag = uuidv7();
  const owner = await seedUser(store, { type: 'user', email: `owner-${tag}@example.test`, username: `owner-${tag}`, password: 'unused-password' });
  return (await seedWebsite(store, { ownerId: owner.id })).id;
}

const hashes = new Map<string, Promise<string>>();

/**
 * A password's hash at production cost, made once per password and process: the seeds give many
 * users the same password, and each hash costs tens of milliseconds of CPU that every test repeated.
 */
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

/** Inserts a user as the users module will; team members get their role row too. */
export async function seedUser(store: Store, user: SeedUser): Promise<typeof users.$inferSelect> {
  const websiteId = user.type === 'teammember' ? (user.websiteId ?? (await someWebsite(store))) : null;
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
      passwordHash: await hashOnce(user.password),
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
