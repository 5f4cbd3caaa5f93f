interface Issue {
  /** Zod's path, or the dotted path of a server's ValidationError, which starts at the request part ("body."). */
  path: string | readonly PropertyKey[];
  message: string;
}

/** The first message per top-level field, from client (Zod) or server validation: one error under each field. */
export function fieldErrors(issues: readonly Issue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { path, message } of issues) {
    const field = typeof path === 'string' ? path.replace(/^body\./, '').split('.')[0]! : String(path[0] ?? '');
    errors[field] ??= message;
  }
  return errors;
}
