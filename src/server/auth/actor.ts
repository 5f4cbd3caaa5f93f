import type { FastifyRequest } from 'fastify';
import { describeDevice } from './device';

/** Who a change is by, as a revision keeps it (migration 0014 reads it from `app.actor`). */
export interface Actor {
  id?: string;
  kind: 'user' | 'visitor';
  /** Their name then: the revision still says who it was after the account is gone. */
  name: string;
  /** Browser and system ("Chrome · Android"): product names, the same in every language. */
  device: string;
}

/** The caller of a change: a signed-in person, or a visitor sending a form through the delivery API. */
export function actorOf(request: FastifyRequest): Actor | null {
  const { browser, os } = describeDevice(request.headers['user-agent'] ?? '');
  const device = [browser, os].filter(Boolean).join(' · ');
  const user = request.auth?.user;
  if (user) return { id: user.id, kind: 'user', name: `${user.firstName} ${user.lastName}`.trim() || user.username, device };
  return request.website ? { kind: 'visitor', name: '', device } : null;
}
