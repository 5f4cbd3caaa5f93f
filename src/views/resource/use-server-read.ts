import { useEffect, useState } from 'react';
import type { z } from 'zod/mini';
import { ApiError, requestData } from '../../api/request';
import { messages } from '../../contract/messages';

/**
 * What a panel reads straight from the server rather than through the device's store (an API key,
 * a website's webhooks: secrets shown once cannot wait in the outbox): `undefined` until the server
 * answers and whenever it cannot be reached, `null` when there is none (404), else the value. The
 * setter takes what the panel's own calls answered. `schema` must be a constant: a new one reads again.
 */
export function useServerRead<S extends z.ZodMiniType>(path: string, schema: S) {
  const [value, setValue] = useState<z.output<S> | null | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    requestData(path, schema, { signal: controller.signal, fallback: messages.requestFailed }).then(setValue, (error: unknown) => {
      if (!controller.signal.aborted) setValue(error instanceof ApiError && error.status === 404 ? null : undefined);
    });
    return () => controller.abort();
  }, [path, schema]);
  return [value, setValue] as const;
}
