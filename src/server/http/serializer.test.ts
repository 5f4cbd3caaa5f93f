// @vitest-environment node
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { successSchema } from '../../contract/envelope';
import { answerSerializer, CHECKED_IN_A_ROW, project } from './serializer';

const Row = z.object({
  _id: z.string(),
  content: z.string().check(z.maxLength(10)),
  cover: z.optional(z.nullable(z.object({ url: z.string(), alt: z._default(z.string(), '') }))),
  tags: z.array(z.object({ name: z.string() })),
  prices: z.optional(z.record(z.string(), z.object({ cents: z.int() }))),
});
const Answer = z.union([successSchema(Row), successSchema(z.array(Row))]);

describe('an answer projected through its schema', () => {
  it('drops every key the schema does not name, at every depth, and keeps what it names', () => {
    const row = {
      _id: 'a',
      content: 'x'.repeat(20),
      passwordHash: 'secret',
      cover: { url: '/p.webp', alt: 'A', storageKey: 'media/p.webp' },
      tags: [{ name: 'one', internal: 1 }],
      prices: { standard: { cents: 100, cost: 40 } },
    };
    expect(project(Row, row)).toEqual({ _id: 'a', content: 'x'.repeat(20), cover: { url: '/p.webp', alt: 'A' }, tags: [{ name: 'one' }], prices: { standard: { cents: 100 } } });
  });

  it('keeps null and leaves out what is undefined, inside optional and nullable', () => {
    expect(project(Row, { _id: 'a', content: '', cover: null, tags: [], prices: undefined })).toEqual({ _id: 'a', content: '', cover: null, tags: [] });
    expect(project(Row, { _id: 'a', content: '', tags: [] })).toEqual({ _id: 'a', content: '', tags: [] });
  });

  it('never lets an object through where the schema expects a scalar or another shape', () => {
    expect(project(Row, { _id: { hash: 'secret' }, content: ['secret'], tags: { name: 'secret' } })).toEqual({ _id: undefined, content: undefined, tags: undefined });
    expect(JSON.stringify(project(Row, { _id: { hash: 'secret' }, content: 'x', tags: [{ name: { hash: 'secret' } }] }))).not.toContain('secret');
  });

  it('takes the union option the value fails deepest in: a list with one bad row stays a list', () => {
    const list = { success: true, data: [{ _id: 'a', content: 'ok', tags: [] }, { _id: 'b', content: 'x'.repeat(20), tags: [], keyHash: 'h' }], extra: 1 };
    expect(project(Answer, list)).toEqual({ success: true, data: [{ _id: 'a', content: 'ok', tags: [] }, { _id: 'b', content: 'x'.repeat(20), tags: [] }] });
    const one = { success: true, data: { _id: 'a', content: 'x'.repeat(20), tags: [], keyHash: 'h' }, message: 'Saved' };
    expect(project(Answer, one)).toEqual({ success: true, data: { _id: 'a', content: 'x'.repeat(20), tags: [] }, message: 'Saved' });
  });

  it('tells union options apart by their own shapes', () => {
    const Shape = z.union([z.object({ kind: z.literal('page'), pageId: z.string() }), z.object({ kind: z.literal('url'), url: z.string() })]);
    expect(project(Shape, { kind: 'url', url: 'https://x.test', pageId: 'leak', secret: 1 })).toEqual({ kind: 'url', url: 'https://x.test' });
    expect(project(Shape, { kind: 'page', pageId: 'p', url: 1, secret: 1 })).toEqual({ kind: 'page', pageId: 'p' });
  });
});

describe('the answer serializer', () => {
  const logged: unknown[][] = [];
  const log = { error: (...args: unknown[]) => void logged.push(args) } as unknown as FastifyBaseLogger;
  const serialize = answerSerializer(log)({ schema: Answer, method: 'GET', url: '/api/rows', httpStatus: '200' });

  it('sends a fitting answer as its schema encodes it, unknown keys left out, and logs nothing', () => {
    expect(JSON.parse(serialize({ success: true, data: { _id: 'a', content: 'ok', tags: [], keyHash: 'h' } }))).toEqual({ success: true, data: { _id: 'a', content: 'ok', tags: [] } });
    expect(logged).toEqual([]);
  });

  it('still answers one that does not fit, projected, and logs it as an error', () => {
    const text = serialize({ success: true, data: [{ _id: 'b', content: 'x'.repeat(20), tags: [], keyHash: 'h' }] });
    expect(JSON.parse(text)).toEqual({ success: true, data: [{ _id: 'b', content: 'x'.repeat(20), tags: [] }] });
    expect(text).not.toContain('keyHash');
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toMatchObject({ route: 'GET /api/rows', status: '200', issues: [expect.objectContaining({ code: 'too_big', path: ['data', 0, 'content'] })] });
  });

  it('checks every answer until a hundred in a row fit, then one in a hundred, and every one again once one does not fit', () => {
    const route = answerSerializer(log)({ schema: Answer, method: 'GET', url: '/api/busy', httpStatus: '200' });
    const fits = { success: true, data: { _id: 'a', content: 'ok', tags: [] } };
    const misfit = { success: true, data: { _id: 'b', content: 'x'.repeat(20), tags: [], keyHash: 'h' } };
    logged.length = 0;
    for (let n = 0; n < CHECKED_IN_A_ROW; n++) route(fits);
    // Not checked, and still sent without the key its schema does not name.
    expect(route(misfit)).not.toContain('keyHash');
    expect(logged).toHaveLength(0);
    for (let n = 1; n < CHECKED_IN_A_ROW - 1; n++) route(fits);
    route(misfit);
    expect(logged).toHaveLength(1);
    route(misfit);
    expect(logged).toHaveLength(2);
  });
});
