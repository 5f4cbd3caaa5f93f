import type { AuthUser } from '../contract/auth';
import type { SessionUser } from './user';

/** The one sample user of the client tests, as the client stores it. */
export const ADA: SessionUser = {
  id: '0190d6b0-0000-7000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
  type: 'user',
  role: null,
  verified: true,
  status: 'active',
  firstName: 'Ada',
  lastName: 'Lovelace',
  language: 'en',
  websiteId: null,
  roleInfo: null,
};

/** The same user as the server sends it (`_id`), with any fields changed. */
export function wireUser(changes: Partial<Omit<AuthUser, '_id'>> = {}): AuthUser {
  const { id, ...fields } = ADA;
  return { ...fields, _id: id, ...changes };
}
