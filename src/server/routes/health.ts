import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import { sendFailure } from '../http/errors';
import { ok } from '../http/reply';
import type { Store } from '../store/open';

/** For load balancers: 200 while the store answers, 503 while it does not. */
export async function healthRoutes(app: FastifyInstance, { store }: { store: Store }) {
  app.get('/api/health', { config: { policy: 'public' } }, async (request, reply) => {
    try {
      await store.ping();
      return ok({ status: 'ok', store: store.kind });
    } catch (err) {
      request.log.warn({ err }, 'store unreachable');
      return sendFailure(reply, 503, { message: request.t(messages.unavailable) });
    }
  });
}
