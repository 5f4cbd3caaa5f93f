import { messages } from './messages';

const catalogIds = new Set(Object.values(messages).map((descriptor) => descriptor.id));

interface Issue {
  /** Zod's path, or the dotted path of a server's ValidationError, which starts at the request part ("body."). */
  path: string | readonly PropertyKey[];
  message: string;
}

/**
 * The first message per top-level field, from client (Zod) or server validation: one error under
 * each field. A schema's messages are catalog ids; a rule that has none gets the catalog's
 * "not valid", never Zod's English. The server's messages arrive translated.
 */
export function fieldErrors(issues: readonly Issue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { path, message } of issues) {
    const fromServer = typeof path === 'string';
    const field = fromServer ? path.replace(/^body\./, '').split('.')[0]! : String(path[0] ?? '');
    errors[field] ??= fromServer || catalogIds.has(message) ? message : messages.invalidValue.id;
  }
  return errors;
}
