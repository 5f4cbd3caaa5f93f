import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { messages } from '../../contract/messages';
import type { ActionAnswer } from '../../contract/action';
import * as entries from '../../contract/resources/webhooks';
import { registerAction } from '../action';
import { encryptSecret } from '../auth/encryption';
import type { ServerContext } from '../context';
import { registerResource, type ResourceHooks, type Row } from '../crud';
import { fieldError, HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { bareHost, isPrivateAddress } from '../http/outbound-address';
import { enforce } from '../http/rate-limit';
import { ok } from '../http/reply';
import { caller } from '../policy';
import { webhookDeliveries, webhooks } from '../store/schema';
import { DEFAULT_TIMING, webhookSender } from '../webhooks/sender';

/** A person may test a webhook this often: enough to fix a receiver, too few to knock on one with. */
const TEST_LIMIT = { max: 10, windowMs: 10 * 60_000 };

/** A new signing secret as Standard Webhooks writes one: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * An address whose host is written as a private address is refused as it is saved; one whose name
 * resolves to such an address is refused when it is sent to (webhooks/post.ts), since the name's
 * addresses may change in between.
 */
function checkedUrl(url: unknown, allowPrivate: boolean): void {
  if (typeof url !== 'string' || allowPrivate) return;
  const host = bareHost(new URL(url).hostname);
  if (isIP(host) && isPrivateAddress(host)) throw fieldError('body.url', entries.webhookMessages.addressRefused);
}

/** The webhook the path names, of the website the policy resolved; another website's is unknown. */
function named(request: FastifyRequest, webhookId: string) {
  if (!isUuid(webhookId)) throw new HttpError(404, messages.notFound);
  return and(eq(webhooks.id, webhookId), eq(webhooks.websiteId, request.website!.id));
}

/**
 * A website's webhooks (ADR 026): the webhooks and their delivery log on the generic CRUD, "send
 * test" and "new secret", and the sender, started with the app and stopped with it.
 */
export async function webhookRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.store.db;
  const allowPrivate = ctx.webhooksAllowPrivate;
  const sender = webhookSender({ ...ctx, allowPrivate, log: app.log, timing: { ...DEFAULT_TIMING, ...ctx.webhookTiming } });
  // A committed change may have queued an event (migration 0019): the sender looks at once, not at its next round.
  const unheard = ctx.changes.subscribe(() => sender.kick());
  app.addHook('onReady', async () => sender.start());
  app.addHook('preClose', async () => {
    unheard();
    await sender.stop();
  });

  const hooks: ResourceHooks = {
    beforeCreate(values, { request, reveal }) {
      checkedUrl(values.url, allowPrivate);
      const secret = newSecret();
      reveal.secret = secret;
      return { ...values, secretEncrypted: encryptSecret(ctx.secret, request.website!.id, secret) };
    },
    beforeUpdate(changes) {
      checkedUrl(changes.url, allowPrivate);
      // Switched on again by a person: the notice of its switching off has been read.
      return changes.isActive === true ? { ...changes, disabledAt: null } : changes;
    },
  };
  const hookRoutes = registerResource(app, ctx, entries.webhooks, webhooks, hooks);
  const deliveryRoutes = registerResource(app, ctx, entries.webhookDeliveries, webhookDeliveries);

  registerAction(
    app,
    entries.testWebhook,
    async ({ params }, request, reply) => {
      const where = named(request, params.webhookId);
      await enforce(db, reply, [[`webhook-test:${caller(request).user.id}:${params.webhookId}`, TEST_LIMIT]], ctx.clock());
      const [hook] = await db.select().from(webhooks).where(where);
      if (!hook) throw new HttpError(404, messages.notFound);
      const delivery = await sender.test(hook);
      const answer = deliveryRoutes.entity(request, delivery as unknown as Row) as ActionAnswer<typeof entries.testWebhook>;
      if (delivery.status !== 'delivered') return ok(answer, { message: request.t(entries.webhookMessages.testFailed) });
      return ok(answer, { message: request.t(entries.webhookMessages.testSent, { status: String(delivery.lastStatusCode) }) });
    },
    // A call to the receiver, written down as it goes: not held in a transaction (ADR 016).
    { config: { transaction: false } },
  );

  registerAction(app, entries.renewWebhookSecret, async ({ params }, request) => {
    const secret = newSecret();
    const [row] = (await db
      .update(webhooks)
      .set({ secretEncrypted: encryptSecret(ctx.secret, request.website!.id, secret), version: sql`${webhooks.version} + 1`, updatedAt: ctx.clock() })
      .where(named(request, params.webhookId))
      .returning()) as Row[];
    if (!row) throw new HttpError(404, messages.notFound);
    // Shown in this answer only: a retry under its Idempotency-Key answers without it.
    return ok(hookRoutes.entity(request, row, { secret }) as ActionAnswer<typeof entries.renewWebhookSecret>, { message: request.t(entries.webhookMessages.secretRenewed) });
  });
}
