import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEMO_OWNER_EMAIL, demoCatalogs, demoOwner } from './demo';
import { appSettings, languages, sessions, settings, users } from './schema';
import type { Db, Initialize } from './open';
import { hashPassword, verifyPassword } from '../auth/passwords';

export interface FirstStartOptions {
  adminEmail: string | null;
  adminPassword: string | null;
  demo: boolean;
  /** Where the generated passwords wait for their first sign-in (firstSignInFile). */
  dataDir: string;
}

export interface FirstAdmin {
  email: string;
  username: string;
  /** Set only when generated: it exists nowhere but in the first-sign-in file, until the admin's first sign-in. */
  generatedPassword: string | null;
  /** With demo data: the demo owner's address and generated password, kept the same way. */
  demoOwner: { email: string; password: string } | null;
}

/** The generated passwords, readable by the data directory's owner alone, until each account's first sign-in. */
export const firstSignInFile = (dataDir: string) => join(dataDir, 'first-sign-in.json');

/** Replaces the file in one step, on disk before it returns: a kill or a power loss leaves the old one or the new one. */
async function keep(file: string, admin: FirstAdmin): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(draft, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(admin, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(draft, file);
  const dir = await open(dirname(file), 'r');
  await dir.sync().finally(() => dir.close());
}

/**
 * What of the first start's credentials nobody has used yet: a password is dropped once its account
 * has signed in (it has a session), no longer has it, or is gone; then the file goes too. Printed
 * on every start until then, so a first start killed after its commit and before it printed them
 * does not leave an installation nobody can sign in to.
 */
export async function pendingFirstSignIn(db: Db, dataDir: string): Promise<FirstAdmin | null> {
  const file = firstSignInFile(dataDir);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  const kept = JSON.parse(text) as FirstAdmin;
  const unused = async (email: string, password: string) => {
    const [user] = await db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(eq(users.email, email));
    if (!user) return false;
    const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id)).limit(1);
    return !session && (await verifyPassword(user.passwordHash, password));
  };
  const pending: FirstAdmin = {
    ...kept,
    generatedPassword: kept.generatedPassword && (await unused(kept.email, kept.generatedPassword)) ? kept.generatedPassword : null,
    demoOwner: kept.demoOwner && (await unused(kept.demoOwner.email, kept.demoOwner.password)) ? kept.demoOwner : null,
  };
  if (!pending.generatedPassword && !pending.demoOwner) {
    await rm(file, { force: true });
    return null;
  }
  if (pending.generatedPassword !== kept.generatedPassword || pending.demoOwner !== kept.demoOwner) await keep(file, pending);
  return pending;
}

const MARKER = 'store.initialized';

/** The interface languages, so the switcher and the language screens start with something (spec §3). */
const FIRST_LANGUAGES = [
  { name: 'English', code: 'en', content: { en: { name: 'English' }, de: { name: 'Englisch' } } },
  { name: 'German', code: 'de', content: { en: { name: 'German' }, de: { name: 'Deutsch' } } },
];

/**
 * The first start of an empty store creates the first admin, the English and German
 * languages and, unless DEMO=0, demo catalogs, services and an owner with a website. The marker row and all that are written in one transaction, so they exist exactly
 * once: a concurrent or later start finds the marker, and a start killed halfway leaves nothing.
 * Generated passwords are in the first-sign-in file before that transaction commits: killed in
 * between, the file names accounts that never were, and the next start makes new ones and
 * replaces it.
 */
export function firstStart(options: FirstStartOptions, onAdminCreated: (admin: FirstAdmin) => void): Initialize {
  return async (db) => {
    const created = await db.transaction(async (tx) => {
      const marked = await tx
        .insert(settings)
        .values({ key: MARKER, value: { at: new Date().toISOString() } })
        .onConflictDoNothing()
        .returning({ key: settings.key });
      if (marked.length === 0) return null;

      const generatedPassword = options.adminPassword ? null : randomBytes(18).toString('base64url');
      const demoOwnerAccount = options.demo ? { email: DEMO_OWNER_EMAIL, password: randomBytes(12).toString('base64url') } : null;
      const admin = { email: options.adminEmail ?? 'admin@localhost', username: 'admin', generatedPassword, demoOwner: demoOwnerAccount };
      if (generatedPassword || demoOwnerAccount) await keep(firstSignInFile(options.dataDir), admin);
      await tx.insert(users).values({
        type: 'admin',
        email: admin.email,
        username: admin.username,
        passwordHash: await hashPassword(options.adminPassword ?? generatedPassword!),
        verified: true,
        firstName: 'Admin',
        lastName: '',
      });
      await tx.insert(languages).values(FIRST_LANGUAGES);
      // The footer always has its Support link (spec §2): the first admin, until /settings names another.
      await tx.update(appSettings).set({ supportUrl: `mailto:${admin.email}` });
      if (demoOwnerAccount) {
        await demoCatalogs(tx);
        await demoOwner(tx, demoOwnerAccount.password);
      }
      return admin;
    });
    if (created) onAdminCreated(created);
  };
}
