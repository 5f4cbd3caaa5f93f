import * as fc from 'fast-check';
import { z } from 'zod/mini';

/*
 * Values from a route's own Zod schemas (zod 4, classic and mini alike: both keep their definition
 * in `_zod.def`), for the suites that go over every route: `exampleOf` is the simplest value a
 * schema accepts (a create body with only its required fields), `arbitraryOf` a fast-check
 * arbitrary of values shaped like what it accepts (most of them valid), and `HOSTILE` the values
 * no schema should let through to the database or past the envelope.
 */

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;
const inner = (schema: Schema) => defOf(schema).innerType as Schema;
const accepts = (schema: Schema, value: unknown) => z.safeParse(schema, value).success;

/** Whether an object's key may be left out (`optional`, or `defaulted`: the default stands in). */
export const isOptional = (schema: Schema) => schema._zod.optin !== undefined;

/** The bounds a schema's checks set: lengths for strings and arrays, the range of numbers, whether they are whole. */
function bounds(schema: Schema) {
  const found: { minLength?: number; maxLength?: number; min?: number; max?: number; int: boolean; patterns: RegExp[] } = { int: false, patterns: [] };
  const def = defOf(schema);
  if (def.format === 'safeint' || def.format === 'int32' || def.format === 'uint32') found.int = true;
  for (const check of (def.checks ?? []) as { _zod: { def: Record<string, unknown> } }[]) {
    const c = check._zod.def;
    if (c.check === 'min_length') found.minLength = c.minimum as number;
    if (c.check === 'max_length') found.maxLength = c.maximum as number;
    if (c.check === 'length_equals') found.minLength = found.maxLength = c.length as number;
    if (c.check === 'greater_than') found.min = (c.value as number) + (c.inclusive ? 0 : found.int ? 1 : 1e-9);
    if (c.check === 'less_than') found.max = (c.value as number) - (c.inclusive ? 0 : found.int ? 1 : 1e-9);
    if (c.check === 'number_format' && String(c.format).includes('int')) found.int = true;
    if (c.check === 'string_format' && c.pattern instanceof RegExp) found.patterns.push(c.pattern);
  }
  return found;
}

/** Context for values that must name real rows: a uuid field's id by its key (a reference), and a serial for unique text. */
export interface ExampleContext {
  serial: number;
  idFor?(key: string): string | undefined;
}

/** Three letters that differ with `n`: a language code unique per serial. */
const letters = (n: number) => [n % 26, Math.floor(n / 26) % 26, Math.floor(n / 676) % 26].map((i) => String.fromCharCode(97 + i)).join('');

const stringCandidates = (n: number) => [
  `Example ${n}`,
  `example-${n}`,
  `example${n}@example.test`,
  `example-${n}.example.test`,
  `https://example.test/${n}`,
  `/example-${n}`,
  `x${n}`,
  letters(n),
  new Date(Date.UTC(2030, 0, 1)).toISOString(),
  'a',
  '',
];

/** The simplest value `schema` accepts (only required keys of objects), or undefined if none of the plain candidates fits. */
export function exampleOf(schema: Schema, context: ExampleContext, key = ''): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'nullable':
      return exampleOf(inner(schema), context, key);
    case 'lazy':
      return exampleOf((def.getter as () => Schema)(), context, key);
    case 'pipe': {
      const from = def.in as Schema;
      if (defOf(from).type === 'transform') return exampleOf(def.out as Schema, context, key);
      if (defOf(from).type !== 'string') return exampleOf(from, context, key);
      return stringExample(schema, context, key);
    }
    case 'string':
      return stringExample(schema, context, key);
    case 'number': {
      const { min, max } = bounds(schema);
      return [1, min, max, 0].find((n) => n !== undefined && accepts(schema, n));
    }
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(shape)
          .filter(([, field]) => !isOptional(field))
          .map(([name, field]) => [name, exampleOf(field, context, name)]),
      );
    }
    case 'array':
      return accepts(schema, []) ? [] : [exampleOf(def.element as Schema, context, key)];
    case 'record':
      return {};
    case 'union':
      return (def.options as Schema[]).map((option) => exampleOf(option, context, key)).find((value) => accepts(schema, value));
    case 'null':
      return null;
    default:
      return 'x';
  }
}

function stringExample(schema: Schema, context: ExampleContext, key: string): string | undefined {
  const def = defOf(schema);
  if (def.format === 'uuid' || def.format === 'guid') return context.idFor?.(key);
  const candidates = stringCandidates(context.serial);
  const plain = candidates.find((candidate) => accepts(schema, candidate));
  if (plain !== undefined) return plain;
  for (const pattern of bounds(schema).patterns) {
    const [made] = fc.sample(matching(pattern), { seed: context.serial, numRuns: 20 }).filter((value) => accepts(schema, value));
    if (made !== undefined) return made;
  }
  return undefined;
}

function matching(pattern: RegExp): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(pattern);
  } catch {
    // A pattern fast-check cannot invert (a lookahead): plain text, which such patterns mostly take.
    return fc.string({ maxLength: 20 });
  }
}

export interface ArbitraryContext {
  /** Ids of real rows, so a generated reference can name one. */
  ids: readonly string[];
}

const MAX_DEPTH = 4;

/** Values shaped like what `schema` accepts, most of them valid; lengths kept short (HOSTILE has the long ones). */
export function arbitraryOf(schema: Schema, context: ArbitraryContext, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > MAX_DEPTH) return fc.constant(null);
  const next = (child: Schema) => arbitraryOf(child, context, depth + 1);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return arbitraryOf(inner(schema), context, depth);
    case 'nullable':
      return fc.option(arbitraryOf(inner(schema), context, depth), { nil: null, freq: 5 });
    case 'lazy':
      return next((def.getter as () => Schema)());
    case 'pipe': {
      const from = def.in as Schema;
      if (defOf(from).type === 'transform') return arbitraryOf(def.out as Schema, context, depth);
      if ((defOf(def.out as Schema).type === 'boolean' || defOf(def.out as Schema).type === 'transform') && defOf(from).type === 'string') {
        // z.stringbool(): the words it reads as true or false, and others.
        return fc.constantFrom('true', 'false', '1', '0', 'yes', 'off', 'maybe');
      }
      return arbitraryOf(from, context, depth);
    }
    case 'string':
      return stringArbitrary(schema, context);
    case 'number': {
      const { min = -1000, max, int } = bounds(schema);
      const high = Math.max(max ?? 100_000, min);
      if (int) return fc.integer({ min: Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER), max: Math.min(Math.floor(high), Number.MAX_SAFE_INTEGER) });
      return fc.double({ min, max: high, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const requiredKeys = Object.keys(shape).filter((name) => !isOptional(shape[name]!));
      return fc.record(Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, next(field)])), { requiredKeys });
    }
    case 'array': {
      const { minLength = 0, maxLength = 4 } = bounds(schema);
      return fc.array(next(def.element as Schema), { minLength: Math.min(minLength, 4), maxLength: Math.min(Math.max(maxLength, minLength), 4) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as Schema[]).map(next));
    case 'record': {
      const keyType = def.keyType as Schema;
      const keys = defOf(keyType).type === 'enum' ? fc.constantFrom(...Object.values(defOf(keyType).entries as Record<string, string>)) : fc.string({ maxLength: 12 });
      return fc.dictionary(keys as fc.Arbitrary<string>, next(def.valueType as Schema), { maxKeys: 3 });
    }
    case 'union':
      return fc.oneof(...(def.options as Schema[]).map((option) => arbitraryOf(option, context, depth)));
    case 'intersection':
      return arbitraryOf(def.left as Schema, context, depth);
    case 'null':
      return fc.constant(null);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArbitrary(schema: Schema, context: ArbitraryContext): fc.Arbitrary<string> {
  const def = defOf(schema);
  if (def.format === 'uuid' || def.format === 'guid') {
    return context.ids.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...context.ids), weight: 3 }, { arbitrary: fc.uuid({ version: 7 }), weight: 1 }) : fc.uuid({ version: 7 });
  }
  if (def.format === 'email') return fc.emailAddress();
  if (def.format === 'datetime') return fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }).map((date) => date.toISOString());
  const { minLength = 0, maxLength = 40, patterns } = bounds(schema);
  const plain = fc.string({ minLength: Math.min(minLength, 40), maxLength: Math.min(Math.max(maxLength, minLength), 40), unit: 'grapheme' });
  if (patterns.length === 0) return plain;
  return fc.oneof({ arbitrary: matching(patterns[0]!), weight: 3 }, { arbitrary: plain, weight: 1 });
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch']);

/**
 * `example` with every plain text field of an object schema (no pattern, no format) at its longest,
 * in a character that grows fivefold when escaped as HTML: what a limit checked before sanitizing
 * lets through.
 */
export function longestOf(schema: Schema, example: Record<string, unknown>): Record<string, unknown> {
  const def = defOf(schema);
  if (def.type !== 'object') return example;
  const longest = Object.entries(def.shape as Record<string, Schema>).flatMap(([key, field]) => {
    let text = field;
    while (WRAPPERS.has(defOf(text).type)) text = inner(text);
    const { maxLength, patterns } = bounds(text);
    const plain = defOf(text).type === 'string' && !defOf(text).format && patterns.length === 0;
    return plain && maxLength !== undefined ? [[key, '&'.repeat(maxLength)]] : [];
  });
  return { ...example, ...Object.fromEntries(longest) };
}

/** The top-level fields of an object schema that hold an id (a uuid, or a list of them): references. */
export function referencesOf(schema: Schema): { key: string; list: boolean }[] {
  const def = defOf(schema);
  if (def.type !== 'object') return [];
  return Object.entries(def.shape as Record<string, Schema>).flatMap(([key, field]) => {
    let value = field;
    while (WRAPPERS.has(defOf(value).type)) value = inner(value);
    const list = defOf(value).type === 'array';
    const item = list ? (defOf(value).element as Schema) : value;
    return defOf(item).format === 'uuid' || defOf(item).format === 'guid' ? [{ key, list }] : [];
  });
}

/** Deep nesting the JSON parser takes and a recursive walk may not: `depth` arrays in one another. */
export const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Values no field should take quietly: too long, control and direction characters, numbers past every range, wrong types, prototype keys. */
export const HOSTILE: readonly unknown[] = [
  'x'.repeat(1_000_000),
  '&'.repeat(150_000),
  'a\u0000b',
  '\u0000',
  '\u202Egnp.exe',
  '\uD800',
  '💥'.repeat(5000),
  '   ',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '../../etc/passwd',
  'NaN',
  '-1',
  -1,
  0,
  1.5,
  -0.000001,
  1e308,
  -1e308,
  2 ** 53 + 1,
  null,
  true,
  [],
  {},
  [[[[['deep']]]]],
  JSON.parse('{"__proto__":{"isAdmin":true,"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
];
