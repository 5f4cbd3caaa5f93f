/** SQLSTATE codes the server answers as the caller's mistake rather than its own. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
// What newer PostgreSQL versions (PGlite's among them) raise for ON DELETE RESTRICT.
export const PG_RESTRICT_VIOLATION = '23001';

/** The PostgreSQL error behind a failed query (drizzle wraps it in `cause`), if there is one. */
export function pgError(err: unknown): { code: string; constraint?: string } | null {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as { code: string; constraint?: string };
  }
  return null;
}

/** Class 22, data exception: a value the database cannot hold, such as a NUL character in a text. */
export const isDataException = (err: unknown) => pgError(err)?.code.startsWith('22') ?? false;
