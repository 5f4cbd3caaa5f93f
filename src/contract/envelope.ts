import { z } from 'zod';

/** DESIGN.md §4: the one response shape of every /api route. */
export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const PaginationSchema = z.object({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
  itemsPerPage: z.number().int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const FailureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(FieldErrorSchema).optional(),
  data: z.unknown().optional(),
});
export type Failure = z.infer<typeof FailureSchema>;

export function successSchema<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    message: z.string().optional(),
    pagination: PaginationSchema.optional(),
  });
}
export type Success<T> = { success: true; data: T; message?: string; pagination?: Pagination };
