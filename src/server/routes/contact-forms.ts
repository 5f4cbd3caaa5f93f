import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import * as entries from '../../contract/resources/contact-forms';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { contactFormHooks, smtpHooks, submissionHooks } from '../content/contact-forms';
import { composeHooks, registerResource } from '../crud';
import { HttpError } from '../http/errors';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import { formDeliveries } from '../mail/form-deliveries';
import { sendWithWebsiteSmtp } from '../mail/website-smtp';
import { caller } from '../policy';
import * as tables from '../store/schema';
import { formSubmissionRoutes } from './form-submissions';
import { mailTexts } from '../mail/texts';

/** A person may try a website's mail server this often: enough to fix a setting, too few to scan with. */
const SMTP_TEST_LIMIT = { max: 10, windowMs: 10 * 60_000 };

/**
 * A website's contact forms (spec §7 Contact forms): forms, their submissions, the SMTP settings
 * and the mail template on the generic CRUD; the SMTP test; the delivery API's submission route;
 * and the sender that mails submissions, started with the app and stopped with it.
 */
export async function contactFormRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.store.db;
  const allowPrivate = ctx.smtpAllowPrivate;
  const deliveries = formDeliveries({ ...ctx, allowPrivate, log: app.log, intervalMs: ctx.formMailRetryMs });
  app.addHook('onReady', async () => deliveries.start());
  app.addHook('preClose', async () => deliveries.stop());

  registerResource(app, ctx, entries.contactForms, tables.contactForms, contactFormHooks);
  registerResource(app, ctx, entries.contactSubmissions, tables.contactSubmissions, submissionHooks, { parentTable: tables.contactForms });
  registerResource(app, ctx, entries.mailTemplates, tables.mailTemplates);
  // Mails waiting for a working server may go once new settings are stored: the sender looks when
  // the change is committed (answered), not from inside its transaction.
  const settingsChanged = new WeakSet<FastifyRequest>();
  const noteChange = async (_row: unknown, { request }: { request: FastifyRequest }) => void settingsChanged.add(request);
  registerResource(app, ctx, entries.smtpSettings, tables.smtpSettings, composeHooks(smtpHooks(ctx.secret, ctx.clock), { afterCreate: noteChange, afterUpdate: noteChange }));
  app.addHook('onResponse', async (request, reply) => {
    if (settingsChanged.has(request) && reply.statusCode < 300) deliveries.kick();
  });

  /**
   * Spec §7 `POST …/smtp/test`: a real mail through the saved settings, to the caller (or `to`).
   * Whatever goes wrong — a private address, no such host, a closed or silent port, a refused
   * login — answers the same "Failed to test SMTP configuration": the answer tells nothing of
   * what listens where. The reason is logged for the installation's operators.
   */
  registerAction(
    app,
    entries.testSmtp,
    async ({ body }, request, reply) => {
      const auth = caller(request);
      const websiteId = request.website!.id;
      await enforce(db, reply, [[`smtp-test:${auth.user.id}:${websiteId}`, SMTP_TEST_LIMIT]], ctx.clock());
      const [found] = await db
        .select({ smtp: tables.smtpSettings, website: tables.websites.name })
        .from(tables.smtpSettings)
        .innerJoin(tables.websites, eq(tables.websites.id, tables.smtpSettings.websiteId))
        .where(eq(tables.smtpSettings.websiteId, websiteId));
      if (!found) throw new HttpError(400, messages.smtpNotConfigured);
      const to = body.to ?? auth.user.email;
      const values = { website: found.website, host: found.smtp.host };
      try {
        await sendWithWebsiteSmtp(found.smtp, { secret: ctx.secret, allowPrivate }, { to, subject: request.t(mailTexts.smtpTestSubject, values), text: request.t(mailTexts.smtpTestText, values) });
      } catch (error) {
        request.log.info({ err: error, websiteId }, 'SMTP test failed');
        throw new HttpError(422, messages.smtpTestFailed);
      }
      return ok({ to }, { message: request.t(messages.smtpTestSent, { email: to }) });
    },
    // A call to the website's mail server, nothing to commit: not held in a transaction (ADR 016).
    { config: { transaction: false } },
  );

  await app.register(formSubmissionRoutes, { ...ctx, deliveries });
}
