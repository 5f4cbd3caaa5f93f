import { asc, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SwitcherLanguage } from '../../contract/auth';
import { INTERFACE_LANGUAGES } from '../../contract/languages';
import { listLanguageOptions, listSwitcherLanguages } from '../../contract/resources/catalogs';
import { registerAction } from '../action';
import { ok } from '../http/reply';
import type { Store } from '../store/open';
import { languages } from '../store/schema';

/** Spec §3: when the catalog holds no interface language, the switcher still offers English and German. */
const fallback: SwitcherLanguage[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
];

/** The languages routes beyond the generic CRUD ones (crud/ registers those, `GET /api/languages/:id` included). */
export async function languageRoutes(app: FastifyInstance, { store }: { store: Store }) {
  const db = store.db;

  // A static segment outranks `:id` in Fastify's router, whatever the order of registration.
  registerAction(app, listLanguageOptions, async () => {
    const rows = await db
      .select({ _id: languages.id, name: languages.name, code: languages.code })
      .from(languages)
      .orderBy(asc(languages.name), asc(languages.id));
    return ok(rows);
  });

  registerAction(app, listSwitcherLanguages, async () => {
    const rows = await db
      .select({ code: languages.code, name: languages.name, content: languages.content })
      .from(languages)
      .where(inArray(languages.code, [...INTERFACE_LANGUAGES]));
    // Each under its own name ("Deutsch", not "German"), in the interface's order.
    const named = INTERFACE_LANGUAGES.flatMap((code) => {
      const row = rows.find((r) => r.code === code);
      return row ? [{ code, name: row.content[code]?.name ?? row.name }] : [];
    });
    return ok(named.length > 0 ? named : fallback);
  });
}
