import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ActionAnswer, ActionInput, AnyAction } from '../contract/action';
import { successSchema, type Success } from '../contract/envelope';

/** What a route of an action may add to what the action declares: where its website comes from, no held transaction, its own CORS, a larger body. */
export interface ActionOptions {
  config?: Omit<FastifyContextConfig, 'policy'>;
  bodyLimit?: number;
}

/**
 * The handler of an action: given its parsed input (and the request, for the caller and the
 * website the policy resolved), it answers the envelope — or sends the reply itself (a file, a
 * redirect) and returns it.
 */
export type ActionHandler<A extends AnyAction> = (
  input: ActionInput<A>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Success<ActionAnswer<A>> | FastifyReply> | Success<ActionAnswer<A>>;

/**
 * Registers an action (contract/action.ts) as one Fastify route: its policy in the route's config
 * (so the one policy check runs, and the server refuses to start without it), its schemas for
 * validation, serialization and the OpenAPI document, its name as the operationId.
 */
export function registerAction<A extends AnyAction>(app: FastifyInstance, action: A, handler: ActionHandler<A>, options: ActionOptions = {}): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: action.method,
    url: action.path,
    bodyLimit: options.bodyLimit,
    config: { ...options.config, policy: action.policy, ...(action.multipart && { multipart: true as const }) },
    // Only the parts it has: Fastify warns of a schema given as undefined.
    schema: {
      operationId: action.name,
      summary: action.summary,
      ...(action.params && { params: action.params }),
      ...(action.query && { querystring: action.query }),
      ...(action.body && { body: action.body }),
      response: { [action.status ?? 200]: successSchema(action.answer) },
    },
    handler: async (request, reply) => {
      const input = { params: request.params, query: request.query, body: request.body } as ActionInput<A>;
      const answer = await handler(input, request, reply);
      if (reply.sent) return reply;
      return reply.code(action.status ?? 200).send(answer);
    },
  });
}
