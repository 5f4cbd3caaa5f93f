import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { toInterfaceLanguage } from '../../contract/languages';
import { TEST_EVENT, type Attempt } from '../../contract/resources/webhooks';
import { decryptSecret } from '../auth/encryption';
import type { ServerContext } from '../context';
import { translator } from '../http/i18n';
import { loadSettings } from '../routes/white-label';
import { revisions, users, webhookDeliveries, webhookEvents, webhooks, websites } from '../store/schema';
import { eventOf } from './events';
import { rounds, type Rounds } from '../store/rounds';
import { postSigned, type Outcome } from './post';
import { mailTexts } from '../mail/texts';

// Sending a website's webhooks (ADR 026). A change's revision is queued in its own transaction
// (migration 0019); a round turns the queued revisions into one delivery per webhook that wants
// the event, then sends the deliveries that are due. Both steps claim their rows first (`for
// update skip locked`), so two senders, or two server instances, never take the same row: each
// event is fanned out once and each delivery is in one sender's hands at a time.

export interface WebhookTiming {
  /** How often a sender looks for new events and deliveries due again. */
  intervalMs: number;
  /** Woken by every committed change, a sender looks at most this often: a burst of saves costs one round. */
  kickGapMs: number;
  /** How long after its `attempts`-th failure a delivery is tried again. */
  retryDelay(attempts: number): number;
  /** How long after its first attempt a failing delivery is given up, and its webhook switched off. */
  giveUpAfterMs: number;
  /** How long one attempt may take, answer included. */
  timeoutMs: number;
}

const MINUTE = 60_000;
/** 30 s, 1, 2, 4 … minutes apart, at most 3 hours: about fifteen attempts in a day. */
export const retryDelay = (attempts: number) => Math.min(MINUTE / 2 * 2 ** Math.max(0, attempts - 1), 180 * MINUTE);

/** Woken by every committed change (routes/webhooks.ts); the rounds between are for retries falling due, 30 s at the soonest. */
export const DEFAULT_TIMING: WebhookTiming = { intervalMs: 30_000, kickGapMs: 250, retryDelay, giveUpAfterMs: 24 * 60 * MINUTE, timeoutMs: 10_000 };

/** Rows one step of a round claims at a time. */
const BATCH = 50;
/** Longer than an attempt may take, lookup included, so a claim outlives its send. */
const CLAIM_MS = 2 * MINUTE;

type Delivery = typeof webhookDeliveries.$inferSelect;
/** A 2xx is the receiver's "got it"; anything else, or no answer, is tried again. */
const delivered = (result: Attempt) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
type WebhookRow = typeof webhooks.$inferSelect;

export interface WebhookSenderOptions extends Pick<ServerContext, 'store' | 'clock' | 'secret' | 'mailer' | 'entries' | 'publicUrl'> {
  allowPrivate: boolean;
  log: FastifyBaseLogger;
  timing: WebhookTiming;
}

export interface WebhookSender extends Rounds {
  /** "Send test": one signed test event now, logged, never retried. */
  test(webhook: WebhookRow): Promise<Delivery>;
}

export function webhookSender({ store, clock, secret, mailer, entries, publicUrl, allowPrivate, log, timing }: WebhookSenderOptions): WebhookSender {
  const db = store.db;

  /** Queued revisions become deliveries, in one transaction with their removal from the queue: none twice, none lost. */
  async function fanOut(): Promise<number> {
    return db.transaction(async (tx) => {
      const queued = await tx
        .select({ id: webhookEvents.id, websiteId: webhookEvents.websiteId, revision: revisions })
        .from(webhookEvents)
        .leftJoin(revisions, eq(revisions.id, webhookEvents.revisionId))
        .orderBy(asc(webhookEvents.createdAt))
        .limit(BATCH)
        .for('update', { of: webhookEvents, skipLocked: true });
      if (queued.length === 0) return 0;
      const hooks = await tx
        .select({ id: webhooks.id, websiteId: webhooks.websiteId, events: webhooks.events })
        .from(webhooks)
        .where(and(inArray(webhooks.websiteId, [...new Set(queued.map((row) => row.websiteId))]), eq(webhooks.isActive, true)));
      const now = clock();
      const deliveries = queued.flatMap(({ websiteId, revision }) => {
        // A revision pruned meanwhile (HISTORY_KEEP_DAYS) has nothing left to tell.
        const event = revision && eventOf(entries, revision);
        if (!event) return [];
        const payload = JSON.stringify({
          type: event.type,
          timestamp: revision.createdAt.toISOString(),
          data: { website: websiteId, module: event.module, entry: event.entry, id: revision.recordId, action: revision.action, version: revision.recordVersion },
        });
        return hooks
          .filter((hook) => hook.websiteId === websiteId && hook.events.includes(event.type))
          .map((hook) => ({ websiteId, webhookId: hook.id, event: event.type, payload, nextAttemptAt: now }));
      });
      if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries);
      await tx.delete(webhookEvents).where(inArray(webhookEvents.id, queued.map((row) => row.id)));
      return queued.length;
    });
  }

  /** Claims due deliveries of active webhooks: they are this sender's for CLAIM_MS. */
  async function claim(now: Date) {
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhooks, and(eq(webhooks.id, webhookDeliveries.webhookId), eq(webhooks.isActive, true)))
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.claimedUntil), lte(webhookDeliveries.claimedUntil, now)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(BATCH)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    return db
      .update(webhookDeliveries)
      .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
  }

  /** One attempt of a delivery, with the webhook's current address and secret. */
  async function attempt(delivery: Delivery, hook: WebhookRow): Promise<Attempt> {
    const at = clock().toISOString();
    let outcome: Outcome;
    try {
      outcome = await postSigned(
        { url: hook.url, secret: decryptSecret(secret, hook.websiteId, hook.secretEncrypted), msgId: delivery.id, payload: delivery.payload },
        { allowPrivate, timeoutMs: timing.timeoutMs },
      );
    } catch (error) {
      log.warn({ err: error, webhook: hook.id }, 'a webhook could not be sent');
      outcome = { statusCode: null, error: 'network', durationMs: 0 };
    }
    if (outcome.error === 'refused') log.warn({ webhook: hook.id, websiteId: hook.websiteId }, 'a webhook was refused: its address is private');
    return { at, ...outcome };
  }

  /** The attempt written down, on the delivery (while `claimed` still holds, when given) and as the webhook's latest. */
  async function record(delivery: Delivery, result: Attempt, status: Delivery['status'], next: Date | null, claimed: boolean) {
    await db
      .update(webhookDeliveries)
      .set({
        status,
        attempts: [...delivery.attempts, result],
        lastAttemptAt: result.at,
        lastStatusCode: result.statusCode,
        lastDurationMs: result.durationMs,
        claimedUntil: null,
        ...(next && { nextAttemptAt: next }),
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), claimed ? eq(webhookDeliveries.claimedUntil, delivery.claimedUntil!) : undefined));
    await db.update(webhooks).set({ lastDeliveryAt: result.at, lastStatusCode: result.statusCode, lastError: result.error }).where(eq(webhooks.id, delivery.webhookId));
  }

  /**
   * A day of failures: the webhook is switched off (by one sender only: the one whose update found
   * it on), what it still had waiting fails with it, and its website's owner is mailed.
   */
  async function switchOff(hook: WebhookRow) {
    const at = clock().toISOString();
    const [off] = await db
      .update(webhooks)
      .set({ isActive: false, disabledAt: at, version: sql`${webhooks.version} + 1`, updatedAt: clock() })
      .where(and(eq(webhooks.id, hook.id), eq(webhooks.isActive, true)))
      .returning({ id: webhooks.id });
    if (!off) return;
    await db.update(webhookDeliveries).set({ status: 'failed', claimedUntil: null }).where(and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.status, 'pending')));
    const [owner] = await db
      .select({ email: users.email, language: users.language, website: websites.name })
      .from(websites)
      .innerJoin(users, eq(users.id, websites.ownerId))
      .where(eq(websites.id, hook.websiteId));
    if (!owner) return;
    const t = translator(toInterfaceLanguage(owner.language));
    const values = { website: owner.website, url: hook.url, link: `${publicUrl}/websites/${hook.websiteId}/webhooks` };
    const settings = await loadSettings(db);
    await mailer
      .send({ to: owner.email, from: settings.mailFrom || undefined, subject: t(mailTexts.webhookDisabledSubject, values), text: t(mailTexts.webhookDisabledText, values) })
      .catch((error: unknown) => log.warn({ err: error, webhook: hook.id }, 'the owner was not told of a webhook switched off'));
  }

  async function send(): Promise<number> {
    const claimed = await claim(clock());
    if (claimed.length === 0) return 0;
    const hooks = new Map((await db.select().from(webhooks).where(inArray(webhooks.id, [...new Set(claimed.map((row) => row.webhookId))]))).map((hook) => [hook.id, hook]));
    for (const delivery of claimed) {
      const hook = hooks.get(delivery.webhookId)!;
      const result = await attempt(delivery, hook);
      if (delivered(result)) {
        await record(delivery, result, 'delivered', null, true);
        continue;
      }
      const first = new Date(delivery.attempts[0]?.at ?? result.at).getTime();
      const now = clock();
      if (now.getTime() - first < timing.giveUpAfterMs) {
        await record(delivery, result, 'pending', new Date(now.getTime() + timing.retryDelay(delivery.attempts.length + 1)), true);
        continue;
      }
      await record(delivery, result, 'failed', null, true);
      await switchOff(hook);
    }
    return claimed.length;
  }

  async function round(): Promise<void> {
    for (;;) if ((await fanOut()) < BATCH || job.stopped) break;
    for (;;) if ((await send()) < BATCH || job.stopped) return;
  }
  const job = rounds({ intervalMs: timing.intervalMs, kickGapMs: timing.kickGapMs, round, log, what: 'the webhook round' });

  return {
    start: job.start,
    kick: job.kick,
    stop: job.stop,
    get stopped() {
      return job.stopped;
    },
    async test(hook) {
      const now = clock();
      const payload = JSON.stringify({ type: TEST_EVENT, timestamp: now.toISOString(), data: { website: hook.websiteId, webhook: hook.id } });
      // Claimed from the start: it is this request's to send, never a round's.
      const [made] = await db
        .insert(webhookDeliveries)
        .values({ websiteId: hook.websiteId, webhookId: hook.id, event: TEST_EVENT, payload, nextAttemptAt: now, claimedUntil: new Date(now.getTime() + CLAIM_MS) })
        .returning();
      const result = await attempt(made!, hook);
      await record(made!, result, delivered(result) ? 'delivered' : 'failed', null, false);
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, made!.id));
      return row!;
    },
  };
}
