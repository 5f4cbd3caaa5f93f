import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { toInterfaceLanguage } from '../../contract/languages';
import type { ServerContext } from '../context';
import { renderFormMail } from '../content/form-mail';
import { translator } from '../http/i18n';
import { contactForms, contactSubmissions, mailTemplates, smtpSettings, users, websites } from '../store/schema';
import { rounds, type Rounds } from '../store/rounds';
import { sendWithWebsiteSmtp } from './website-smtp';
import { mailTexts } from './texts';

// Mailing contact form submissions (issue 12): a submission is stored first, then mailed through
// its website's SMTP server. A mail the server does not take stays pending and is tried again
// later, further apart each time, until it goes: none is lost, and none goes twice, because a
// sender first claims its rows for a while (`for update skip locked`, so two senders, or two
// server instances, never claim the same one) and marks them sent only while its claim holds.

/** How many mails one pass of the sender claims at a time. */
const BATCH = 20;
/** Longer than any one send may take (the lookup and SMTP timeouts), so a claim outlives its send. */
const CLAIM_MS = 5 * 60_000;
const FIRST_RETRY_MS = 60_000;
const LAST_RETRY_MS = 6 * 3600_000;

/** When a mail that has now failed `attempts` times is tried again: 1, 2, 4 … minutes, at most 6 hours apart. */
export const retryDelay = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LAST_RETRY_MS);

export interface FormDeliveryOptions extends Pick<ServerContext, 'store' | 'clock' | 'secret'> {
  allowPrivate: boolean;
  log: FastifyBaseLogger;
  /** How often the sender looks for mails due again (tests pass a short one). */
  intervalMs?: number;
}

/** The sender's rounds; `kick` when a submission came or the mail settings changed. */
export type FormDeliveries = Rounds;

export function formDeliveries({ store, clock, secret, allowPrivate, log, intervalMs = 60_000 }: FormDeliveryOptions): FormDeliveries {
  const db = store.db;

  /** Claims the due mails of websites that have a mail server: they are this sender's for CLAIM_MS. */
  async function claim(now: Date) {
    const due = db
      .select({ id: contactSubmissions.id })
      .from(contactSubmissions)
      .innerJoin(smtpSettings, eq(smtpSettings.websiteId, contactSubmissions.websiteId))
      .where(
        and(
          eq(contactSubmissions.mailStatus, 'pending'),
          lte(contactSubmissions.nextAttemptAt, now),
          or(isNull(contactSubmissions.claimedUntil), lte(contactSubmissions.claimedUntil, now)),
        ),
      )
      .orderBy(asc(contactSubmissions.nextAttemptAt))
      .limit(BATCH)
      .for('update', { of: contactSubmissions, skipLocked: true });
    return db
      .update(contactSubmissions)
      .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), mailAttempts: sql`${contactSubmissions.mailAttempts} + 1` })
      .where(inArray(contactSubmissions.id, due))
      .returning();
  }

  /** A form with what its mails need: its website's server, template and owner's language. */
  async function formOf(websiteId: string, formId: string) {
    const [found] = await db
      .select({ form: contactForms, smtp: smtpSettings, template: mailTemplates, language: users.language })
      .from(contactForms)
      .innerJoin(smtpSettings, eq(smtpSettings.websiteId, contactForms.websiteId))
      .innerJoin(websites, eq(websites.id, contactForms.websiteId))
      .innerJoin(users, eq(users.id, websites.ownerId))
      .leftJoin(mailTemplates, eq(mailTemplates.websiteId, contactForms.websiteId))
      .where(and(eq(contactForms.id, formId), eq(contactForms.websiteId, websiteId)));
    return found;
  }
  type FormFacts = Awaited<ReturnType<typeof formOf>>;

  /** One claimed submission, mailed; true when its website's server took it. */
  async function deliver(submission: typeof contactSubmissions.$inferSelect, found: FormFacts): Promise<boolean> {
    if (!found) return false;
    // The default template speaks the website owner's language; its placeholders are the template's own.
    const t = translator(toInterfaceLanguage(found.language));
    const placeholders = { form: '{{form}}', date: '{{date}}', fields: '{{fields}}' };
    const mail = renderFormMail(
      found.template ?? { subject: '', body: '' },
      { subject: t(mailTexts.formMailSubject, placeholders), body: t(mailTexts.formMailText, placeholders) },
      { form: found.form.name, sentAt: submission.createdAt, values: submission.values },
    );
    // An answer goes to the visitor: the first address they gave (the submission checked its form).
    const visitor = submission.values.find((field) => found.form.fields.some((spec) => spec.name === field.name && spec.type === 'email') && field.value !== '');
    await sendWithWebsiteSmtp(found.smtp, { secret, allowPrivate }, { to: found.form.recipientEmail || found.smtp.fromEmail, ...mail, ...(visitor ? { replyTo: String(visitor.value) } : {}) });
    return true;
  }

  /** Mails everything due, a batch at a time; each mail's outcome is written while its claim holds. */
  async function round(): Promise<void> {
    for (;;) {
      const now = clock();
      const claimed = await claim(now);
      // A burst of one form's submissions reads the form and its settings once per batch, not per mail.
      const forms = new Map<string, Promise<FormFacts>>();
      for (const submission of claimed) {
        const mine = and(eq(contactSubmissions.id, submission.id), eq(contactSubmissions.claimedUntil, submission.claimedUntil!));
        let sent = false;
        try {
          if (!forms.has(submission.formId)) forms.set(submission.formId, formOf(submission.websiteId, submission.formId));
          sent = await deliver(submission, await forms.get(submission.formId)!);
        } catch (error) {
          log.warn({ err: error, submission: submission.id, attempts: submission.mailAttempts }, 'a contact form mail was not sent; it is tried again later');
        }
        const at = clock();
        await db
          .update(contactSubmissions)
          .set(sent ? { mailStatus: 'sent', sentAt: at, claimedUntil: null } : { claimedUntil: null, nextAttemptAt: new Date(at.getTime() + retryDelay(submission.mailAttempts)) })
          .where(mine);
      }
      if (claimed.length < BATCH || job.stopped) return;
    }
  }

  const job = rounds({ intervalMs, round, log, what: 'the contact form mail round' });
  return job;
}
