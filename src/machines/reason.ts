/** What a failed request says: the store's errors carry the server's message or the fixed one. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
