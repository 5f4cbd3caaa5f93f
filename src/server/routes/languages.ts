import { asc, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SwitcherLanguageSchema, type SwitcherLanguage } from '../../contract/auth';
import { successSchema } from '../../contract/envelope';
import { INTERFACE_LANGUAGES } from '../../contract/languages';
import { LanguageOptionSchema } from '../../contract/resources/catalogs';
import { ok } from '../http/reply';
import type { Store } from '../store/open';
import { languages } from '../store/schema';

/** Spec §3: when the catalog holds no interface language, the switcher still offers English and German. */
const fallback: SwitcherLanguage[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
];

/** The languages routes beyond the generic CRUD ones (crud.ts registers those, `GET /api/languages/:id` included). */
export async function languageRoutes(app: FastifyInstance, { store }: { store: Store }) {
  const db = store.db;
  const route = app.withTypeProvider<ZodTypeProvider>();

  // A static segment outranks `:id` in Fastify's router, whatever the order of registration.
  route.get(
    '/api/languages/dropdown',
    { config: { policy: 'authenticated' }, schema: { response: { 200: successSchema(z.array(LanguageOptionSchema)) } } },
    async () => {
      const rows = await db
        .select({ _id: languages.id, name: languages.name, code: languages.code })
        .from(languages)
        .orderBy(asc(languages.name), asc(languages.id));
      return ok(rows);
    },
  );

  // Before sign-in too: the sign-in screen has the switcher.
  route.get(
    '/api/languages/switcher',
    {
      config: { policy: 'public' },
      schema: { querystring: z.object({ userLanguage: z.string().max(10).optional() }), response: { 200: successSchema(z.array(SwitcherLanguageSchema)) } },
    },
    async () => {
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
    },
  );
}
