import { z } from 'zod/mini';

/** docs/design.md §4: the one response shape of every /api route. */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const PaginationSchema = z.object({
  currentPage: z.int(),
  totalPages: z.int(),
  totalItems: z.int(),
  itemsPerPage: z.int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const FailureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.optional(z.array(FieldErrorSchema)),
  data: z.optional(z.unknown()),
});
export type Failure = z.infer<typeof FailureSchema>;

export function successSchema<T extends z.core.SomeType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    message: z.optional(z.string()),
    pagination: z.optional(PaginationSchema),
  });
}
export type Success<T> = { success: true; data: T; message?: string; pagination?: Pagination };
