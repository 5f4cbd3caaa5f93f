import { z } from 'zod/mini';
import { defineAction } from './action';

/** For load balancers: 200 and the kind of store while it answers; 503 (the failure envelope) while it does not. */
export const health = defineAction({
  name: 'health',
  method: 'GET',
  path: '/api/health',
  policy: 'public',
  summary: 'Whether the server and its database answer.',
  answer: z.object({ status: z.literal('ok'), store: z.enum(['pglite', 'postgres']) }),
});
