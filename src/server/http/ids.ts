import { z } from 'zod';

const Uuid = z.guid();

/**
 * Whether a path parameter or header is shaped like a UUID. Checked before a query, so a
 * malformed id is answered like an unknown one instead of making PostgreSQL fail on the cast.
 */
export const isUuid = (value: unknown): value is string => Uuid.safeParse(value).success;
