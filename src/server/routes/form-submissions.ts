import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import { publicForm, submitForm } from '../../contract/resources/contact-forms';
import { uuidv7 } from '../../contract/uuid';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { checkSubmission } from '../content/contact-forms';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import type { FormDeliveries } from '../mail/form-deliveries';
import { afterCommit } from '../store/request-transaction';
import { contactForms, contactSubmissions } from '../store/schema';
import { openToWebsites } from './public';

// The delivery API's side of contact forms (under /api/public, like routes/public.ts): a website
// reads a form's fields to show it, and posts what its visitor typed with its key in X-API-Key.
// The submission is stored before anything else happens; its mail follows (mail/form-deliveries.ts).

/** One visitor (by address) may send one form this often; a form takes at most this many from everyone. */
const PER_CLIENT = { max: 5, windowMs: 10 * 60_000 };
const PER_FORM = { max: 300, windowMs: 3600_000 };

export async function formSubmissionRoutes(app: FastifyInstance, { store, clock, deliveries }: Pick<ServerContext, 'store' | 'clock'> & { deliveries: FormDeliveries }) {
  const db = store.db;
  // The actions' policy is the entry's create policy: a website's key, never a session (contract
  // createdBy 'visitor'); the CORS is the delivery API's own.
  const options = { config: { cors: false } } as const;

  // Websites post from their visitors' browsers, on their own origins (routes/public.ts answers the preflight).
  app.addHook('onRequest', openToWebsites);

  /** The website's form by its id, while it takes submissions; another website's is unknown. */
  async function activeForm(websiteId: string, formId: string) {
    if (!isUuid(formId)) return undefined;
    const [form] = await db
      .select()
      .from(contactForms)
      .where(and(eq(contactForms.id, formId), eq(contactForms.websiteId, websiteId), eq(contactForms.isActive, true)));
    return form;
  }

  registerAction(
    app,
    publicForm,
    async ({ params }, request) => {
      const form = await activeForm(request.website!.id, params.formId);
      if (!form) throw new HttpError(404, messages.notFound);
      const { id, name, description, fields } = form;
      return ok({ id, name, description, fields });
    },
    options,
  );

  registerAction(
    app,
    submitForm,
    async ({ params, body }, request, reply) => {
      const websiteId = request.website!.id;
      const form = await activeForm(websiteId, params.formId);
      if (!form) throw new HttpError(404, messages.notFound);
      await enforce(db, reply, [[`form-submit:${request.ip}:${form.id}`, PER_CLIENT], [`form-submit:${form.id}`, PER_FORM]], clock());
      const checked = checkSubmission(form.fields, body);
      if (Array.isArray(checked)) throw new HttpError(400, messages.validationFailed, undefined, checked);
      const now = clock();
      const [row] = await db
        .insert(contactSubmissions)
        .values({ id: uuidv7(now.getTime()), websiteId, formId: form.id, values: checked.values, summary: checked.summary, createdAt: now, updatedAt: now, nextAttemptAt: now })
        .returning({ id: contactSubmissions.id, createdAt: contactSubmissions.createdAt });
      // Stored: whatever the mail server does now, the submission is kept, and its mail follows
      // once it is committed (before, the sender would not see it).
      afterCommit(() => deliveries.kick());
      return ok({ id: row!.id, createdAt: row!.createdAt.toISOString() }, { message: request.t(messages.submissionReceived) });
    },
    options,
  );
}
