import type { Pagination, Success } from '../../contract/envelope';

export function ok<T>(data: T, extra: { message?: string; pagination?: Pagination } = {}): Success<T> {
  return { success: true, data, ...extra };
}
