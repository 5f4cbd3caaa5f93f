import { useState } from 'react';
import { useToast } from '../../machines/feedback';
import { reasonOf } from '../../machines/reason';

/**
 * A row of buttons that call the server one at a time (an API key's, a webhook's): `busy` while
 * one runs, and a failure said in the one toast with the server's reason.
 */
export function useBusyAction() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function act(run: () => Promise<void>) {
    setBusy(true);
    try {
      await run();
    } catch (error) {
      toast.error(reasonOf(error));
    } finally {
      setBusy(false);
    }
  }
  return { busy, act };
}
