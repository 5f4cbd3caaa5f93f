import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { onLiveChange } from '../../api/live';
import { concerns } from '../../contract/live';
import type { editorMachine } from '../../machines/editor.machine';

/**
 * An open record changed elsewhere (api/live.ts): it is read again — a clean form shows the new
 * version, one with edits offers the usual choice (keep mine / take theirs) instead of letting a
 * later save overwrite the other change. Back online, it is read again too, as a list is
 * (use-list-page.ts): this device's copy and its "Offline" note give way to the server's.
 */
export function useLiveRecord(actor: ActorRefFrom<typeof editorMachine>): void {
  useEffect(() => {
    const refresh = () => {
      if (!actor.getSnapshot().context.isNew) actor.send({ type: 'record.refresh' });
    };
    const stopLive = onLiveChange((change) => {
      const { resource, id, version } = actor.getSnapshot().context;
      const ours = change === 'reset' || (concerns(resource, change) && change.record === id && (change.version === null || change.version > (version ?? 0)));
      if (ours) refresh();
    });
    window.addEventListener('online', refresh);
    return () => {
      stopLive();
      window.removeEventListener('online', refresh);
    };
  }, [actor]);
}
