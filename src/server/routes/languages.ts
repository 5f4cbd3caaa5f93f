import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SwitcherLanguageSchema, type SwitcherLanguage } from '../../contract/auth';
import { successSchema } from '../../contract/envelope';
import { ok } from '../http/reply';

/** Each language under its own name, as a switcher shows it. The languages catalog replaces this list later. */
const interfaceLanguages: SwitcherLanguage[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
];

export async function languageRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/languages/switcher',
    {
      config: { policy: 'public' },
      schema: { querystring: z.object({ userLanguage: z.string().max(10).optional() }), response: { 200: successSchema(z.array(SwitcherLanguageSchema)) } },
    },
    async () => ok(interfaceLanguages),
  );
}
