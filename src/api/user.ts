import type { z } from 'zod';
import { AuthUserSchema, type AuthUser } from '../contract/auth';

/** The signed-in user as the client keeps it: the server's `_id` becomes `id` here, once (DESIGN §4). */
export const SessionUserSchema = AuthUserSchema.omit({ _id: true }).extend({ id: AuthUserSchema.shape._id });
export type SessionUser = z.infer<typeof SessionUserSchema>;

export function toSessionUser({ _id, ...user }: AuthUser): SessionUser {
  return { ...user, id: _id };
}
