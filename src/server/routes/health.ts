import type { FastifyInstance } from 'fastify';
import { health } from '../../contract/health';
import { messages } from '../../contract/messages';
import { registerAction } from '../action';
import { sendFailure } from '../http/errors';
import { ok } from '../http/reply';
import type { Store } from '../store/open';

/** For load balancers: 200 while the store answers, 503 while it does not. */
export async function healthRoutes(app: FastifyInstance, { store }: { store: Store }) {
  registerAction(app, health, async (_input, request, reply) => {
    try {
      await store.ping();
      return ok({ status: 'ok' as const, store: store.kind });
    } catch (err) {
      request.log.warn({ err }, 'store unreachable');
      return sendFailure(reply, 503, { message: request.t(messages.unavailable) });
    }
  });
}
