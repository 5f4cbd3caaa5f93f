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

type Projection = (value: unknown) => unknown;
const projections = new WeakMap<z.core.$ZodType, Projection>();

/**
 * `value` as far as `schema` describes it: every object keeps only the keys its shape names, at
 * every depth; arrays and records are projected item by item; a union takes the option that fits
 * (or fails deepest); a scalar stays as it is, but an object where the schema expects a scalar is
 * left out, since nothing says which of its keys may be shown. What does not fit otherwise (a text
 * over its limit, a wrong enum value) is kept: it is the stored value, and it hides nothing.
 */
export const project = (schema: z.core.$ZodType, value: unknown): unknown => projection(schema)(value);

/**
 * `project` for one schema, worked out once: a function per node of the schema, so an answer costs
 * a walk of its own values, not of the schema's definitions. An object's fields are worked out at
 * its first value, so a schema that holds itself (a menu entry's children) ends.
 */
function projection(schema: z.core.$ZodType): Projection {
  const known = projections.get(schema);
  if (known) return known;
  const made = projectionOf(schema);
  projections.set(schema, made);
  return made;
}

function projectionOf(schema: z.core.$ZodType): Projection {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional': {
      const inner = projection(def.innerType as z.core.$ZodType);
      return (value) => (value == null ? value : inner(value));
    }
    // An answer is encoded: its JSON has the shape of the pipe's input side.
    case 'pipe':
      return projection(def.in as z.core.$ZodType);
    case 'object': {
      let fields: [string, Projection][] | undefined;
      return (value) => {
        if (!isRecord(value)) return isObject(value) ? undefined : value;
        fields ??= Object.entries(def.shape as Record<string, z.core.$ZodType>).map(([key, field]) => [key, projection(field)]);
        const kept: Record<string, unknown> = {};
        for (const [key, field] of fields) if (value[key] !== undefined) kept[key] = field(value[key]);
        return kept;
      };
    }
    case 'array': {
      const item = projection(def.element as z.core.$ZodType);
      return (value) => (Array.isArray(value) ? value.map((one) => item(one)) : isObject(value) ? undefined : value);
    }
    case 'record': {
      const item = projection(def.valueType as z.core.$ZodType);
      return (value) => (isRecord(value) ? Object.fromEntries(Object.entries(value).map(([key, one]) => [key, item(one)])) : isObject(value) ? undefined : value);
    }
    case 'union': {
      const options = def.options as z.core.$ZodType[];
      return (value) => {
        // Nothing but an object can hold a key to leave out: any option keeps a scalar as it is, so none is tried.
        if (!isObject(value)) return value;
        const depths = options.map((option) => fitDepth(option, value));
        return project(options[depths.indexOf(Math.max(...depths))]!, value);
      };
    }
    case 'unknown':
    case 'any':
      return (value) => value;
    default:
      return (value) => (isObject(value) ? undefined : value);
  }
}

/**
 * A route's answers are each checked against its schema until this many in a row have fit; from
 * then on one in as many is, until one does not fit. The check only finds our faults (the
 * projection, on every answer, is what keeps undeclared keys in), and it cost a busy route more than
 * reading its rows: six times the projection for a food menu of twelve dishes.
 */
export const CHECKED_IN_A_ROW = 100;

/**
 * Answers as their route's Zod schema encodes them (in place of fastify-type-provider-zod's
 * serializer, which throws), projected through the schema's shapes: no key the schema does not
 * name (a hash, a secret column) ever leaves the server. An answer that does not fit — a row
 * stored before a limit held, or changed by a migration — is our fault, logged as an error, and
 * still answered as far as it fits: one bad row never turns a whole list into a 500.
 */
export function answerSerializer(log: FastifyBaseLogger): FastifySerializerCompiler<z.core.$ZodType> {
  return ({ schema, method, url, httpStatus }) => {
    const shown = projection(schema);
    let answered = 0;
    let fitting = 0;
    return (data: unknown) => {
      if (fitting >= CHECKED_IN_A_ROW && ++answered % CHECKED_IN_A_ROW !== 0) return JSON.stringify(shown(data));
      // A checked answer that fits is sent as the check encoded it: the same JSON, not projected a second time.
      const strict = z.safeEncode(schema, data);
      if (strict.success) {
        fitting++;
        return JSON.stringify(strict.data);
      }
      fitting = 0;
      log.error({ route: `${method} ${url}`, status: httpStatus, issues: strict.error.issues }, 'an answer does not fit its schema; sent as far as it does');
      return JSON.stringify(shown(data));
    };
  };
}
