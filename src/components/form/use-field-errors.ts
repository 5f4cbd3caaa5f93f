import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { z } from 'zod/mini';
import { messages } from '../../contract/messages';
import { fieldErrors } from '../../contract/field-errors';

const catalogue = new Map<string, { id: string; message: string }>(Object.values(messages).map((m) => [m.id, m]));

/**
 * Client-side checks with the contract's schemas plus the server's field errors, translated.
 * Schema messages are catalogue ids, translated here (the descriptor carries the English fallback);
 * server messages arrive in the interface language already.
 */
export function useFieldErrors(serverErrors: Readonly<Record<string, string>> = {}) {
  const { i18n } = useLingui();
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});

  /** The parsed values, or null after showing what is wrong. */
  function check<T>(schema: z.core.$ZodType<T>, values: unknown): T | null {
    const result = z.safeParse(schema, values);
    setClientErrors(result.success ? {} : fieldErrors(result.error.issues));
    return result.success ? result.data : null;
  }

  function errorOf(field: string): string | null {
    const id = clientErrors[field] ?? serverErrors[field];
    if (!id) return null;
    const descriptor = catalogue.get(id);
    return descriptor ? i18n._(descriptor) : id;
  }

  return { check, errorOf };
}
