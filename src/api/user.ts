import { z } from 'zod/mini';
import { AuthUserSchema, type AuthUser } from '../contract/auth';

/** The signed-in user as the client keeps it: the server's `_id` becomes `id` here, once (DESIGN §4). */
export const SessionUserSchema = z.extend(z.omit(AuthUserSchema, { _id: true }), { id: AuthUserSchema.shape._id });
export type SessionUser = z.infer<typeof SessionUserSchema>;

export function toSessionUser({ _id, ...user }: AuthUser): SessionUser {
  return { ...user, id: _id };
}
