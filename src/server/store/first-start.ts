import { randomBytes } from 'node:crypto';
import { DEMO_OWNER_EMAIL, demoCatalogs, demoOwner } from './demo';
import { appSettings, languages, settings, users } from './schema';
import type { Initialize } from './open';
import { hashPassword } from '../auth/passwords';

export interface FirstStartOptions {
  adminEmail: string | null;
  adminPassword: string | null;
  demo: boolean;
}

export interface FirstAdmin {
  email: string;
  username: string;
  /** Set only when generated: it exists nowhere else and is shown exactly once. */
  generatedPassword: string | null;
  /** With demo data: the demo owner's address and (generated, shown once) password. */
  demoOwner: { email: string; password: string } | null;
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
