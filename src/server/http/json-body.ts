import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import { HttpError } from './errors';

/**
 * How deep a JSON body may nest its objects and arrays. The product's own bodies stay under ten
 * (a form's fields, a role's module levels); the limit is what keeps every later step — the
 * request hash, validation, sanitizing, serializing — from recursing as deep as a stranger likes.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of a JSON text, read in one pass without parsing it (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Fastify's own JSON parser (with its `__proto__` and `constructor` guards), after a depth check. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) return done(new HttpError(400, messages.nestedTooDeep), undefined);
    parse(request, body as string, done);
  });
}
