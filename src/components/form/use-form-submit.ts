import { i18n, type MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import type { z } from 'zod/mini';
import { ValidationError } from '../../api/request';
import { fieldErrors } from '../../contract/field-errors';
import { useFieldErrors } from './use-field-errors';

/**
 * Submitting a form that saves at once: checks the values with the contract's schema, marks the
 * form busy, and on failure shows the server's field errors at their fields, or its message (else
 * `fallback`) above the form. The values stay as typed either way.
 */
export function useFormSubmit(fallback: MessageDescriptor) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const { check, errorOf } = useFieldErrors(serverErrors);

  async function submit<T>(schema: z.core.$ZodType<T>, values: Record<string, unknown>, save: (body: T) => Promise<void>) {
    const body = check(schema, values);
    if (!body) return;
    setSaving(true);
    setError(null);
    setServerErrors({});
    try {
      await save(body);
    } catch (failure) {
      const errors = failure instanceof ValidationError ? fieldErrors(failure.errors) : {};
      setServerErrors(errors);
      // A reason shown at its field needs no second copy above the form.
      const atField = Object.keys(errors).some((field) => field in values);
      setError(atField ? null : failure instanceof Error ? failure.message : i18n._(fallback));
    } finally {
      setSaving(false);
    }
  }

  return { submit, saving, error, errorOf };
}
