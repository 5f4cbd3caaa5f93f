import type { FastifyBaseLogger, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as Def;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !(value instanceof Date);
const isRecord = (value: unknown): value is Record<string, unknown> => isObject(value) && !Array.isArray(value);

/** How far into `value` the schema's shapes reach before it fails: a list with one bad row fails in that row, an entity schema at the list itself. */
function fitDepth(schema: z.core.$ZodType, value: unknown): number {
  const result = z.safeEncode(schema, value);
  return result.success ? Infinity : Math.min(...result.error.issues.map((issue) => issue.path.length));
}

/**
 * `value` as far as `schema` describes it: every object keeps only the keys its shape names, at
 * every depth; arrays and records are projected item by item; a union takes the option that fits
 * (or fails deepest); a scalar stays as it is, but an object where the schema expects a scalar is
 * left out, since nothing says which of its keys may be shown. What does not fit otherwise (a text
 * over its limit, a wrong enum value) is kept: it is the stored value, and it hides nothing.
 */
export function project(schema: z.core.$ZodType, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return value == null ? value : project(def.innerType as z.core.$ZodType, value);
    // An answer is encoded: its JSON has the shape of the pipe's input side.
    case 'pipe':
      return project(def.in as z.core.$ZodType, value);
    case 'object': {
      if (!isRecord(value)) return isObject(value) ? undefined : value;
      const shape = def.shape as Record<string, z.core.$ZodType>;
      return Object.fromEntries(Object.entries(shape).flatMap(([key, field]) => (value[key] === undefined ? [] : [[key, project(field, value[key])]])));
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => project(def.element as z.core.$ZodType, item)) : isObject(value) ? undefined : value;
    case 'record':
      return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, project(def.valueType as z.core.$ZodType, item)])) : isObject(value) ? undefined : value;
    case 'union': {
      const options = def.options as z.core.$ZodType[];
      const depths = options.map((option) => fitDepth(option, value));
      return project(options[depths.indexOf(Math.max(...depths))]!, value);
    }
    case 'unknown':
    case 'any':
      return value;
    default:
      return isObject(value) ? undefined : value;
  }
}

/**
 * Answers as their route's Zod schema encodes them (in place of fastify-type-provider-zod's
 * serializer, which throws). An answer that does not fit — a row stored before a limit held, or
 * changed by a migration — is our fault, logged as an error, and still answered, projected through
 * the schema's shapes: one bad row never turns a whole list into a 500, and no key the schema does
 * not name (a hash, a secret column) ever leaves the server.
 */
export function answerSerializer(log: FastifyBaseLogger): FastifySerializerCompiler<z.core.$ZodType> {
  return ({ schema, method, url, httpStatus }) =>
    (data: unknown) => {
      const strict = z.safeEncode(schema, data);
      if (strict.success) return JSON.stringify(strict.data);
      log.error({ route: `${method} ${url}`, status: httpStatus, issues: strict.error.issues }, 'an answer does not fit its schema; sent as far as it does');
      return JSON.stringify(project(schema, data));
    };
}
