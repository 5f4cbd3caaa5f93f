import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors } from './field-errors';

describe('fieldErrors', () => {
  it('keeps the first Zod message per field', () => {
    const schema = z.object({ pin: z.string().min(6, 'too short').regex(/^\d+$/, 'digits only'), email: z.email('bad email') });
    const result = schema.safeParse({ pin: 'ab', email: 'x' });

    expect(fieldErrors(result.error?.issues ?? [])).toEqual({ pin: 'too short', email: 'bad email' });
  });

  it('reads the top-level field of a server path', () => {
    expect(fieldErrors([{ path: 'items.0.name', message: 'required' }, { path: 'items.1.name', message: 'later' }])).toEqual({
      items: 'required',
    });
    expect(fieldErrors([{ path: 'username', message: 'taken' }])).toEqual({ username: 'taken' });
    expect(fieldErrors([{ path: 'body.currentPassword', message: 'wrong' }])).toEqual({ currentPassword: 'wrong' });
  });
});
