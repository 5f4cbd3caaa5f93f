import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { z } from 'zod';

const MUTATING = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A request that came with nothing: no body, and no content type to say one was meant. */
const emptyAsObject: preValidationHookHandler = async (request) => {
  if (request.body === undefined && request.headers['content-type'] === undefined) request.body = {};
};

/**
 * Spec §7: the client sends a JSON content type only when it sends a body, so a call without a
 * payload (making an API key, an SMTP test) arrives with neither. A mutating route whose body
 * schema takes an empty object reads such a request as one; any other still answers "required".
 * Call it before the routes are added.
 */
export function registerEmptyBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body as z.core.$ZodType | undefined;
    if (!body || ![route.method].flat().some((method) => MUTATING.includes(method)) || !z.safeParse(body, {}).success) return;
    route.preValidation = [emptyAsObject, ...(route.preValidation ? [route.preValidation].flat() : [])];
  });
}
