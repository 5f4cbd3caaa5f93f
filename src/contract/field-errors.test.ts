import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { messages } from './messages';
import { fieldErrors } from './field-errors';

const { pinFormat, emailFormat, invalidValue } = messages;

describe('fieldErrors', () => {
  it('keeps the first Zod message per field', () => {
    const schema = z.object({
      pin: z.string().check(z.minLength(6, pinFormat.id), z.regex(/^\d+$/, 'field.other')),
      email: z.email(emailFormat.id),
    });
    const result = schema.safeParse({ pin: 'ab', email: 'x' });

    expect(fieldErrors(result.error?.issues ?? [])).toEqual({ pin: pinFormat.id, email: emailFormat.id });
  });

  it('gives a rule without a catalog message the catalog’s “not valid”, not Zod’s English', () => {
    const result = z.object({ age: z.int(), note: z.string().check(z.maxLength(2)) }).safeParse({ age: 'x', note: 'long' });
    expect(fieldErrors(result.error?.issues ?? [])).toEqual({ age: invalidValue.id, note: invalidValue.id });
  });

  it('reads the top-level field of a server path, and keeps the server’s (translated) message', () => {
    expect(fieldErrors([{ path: 'items.0.name', message: 'required' }, { path: 'items.1.name', message: 'later' }])).toEqual({
      items: 'required',
    });
    expect(fieldErrors([{ path: 'username', message: 'taken' }])).toEqual({ username: 'taken' });
    expect(fieldErrors([{ path: 'body.currentPassword', message: 'wrong' }])).toEqual({ currentPassword: 'wrong' });
  });
});
