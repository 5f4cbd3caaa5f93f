import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { onLiveChange } from '../../api/live';
import { concerns } from '../../contract/live';
import type { editorMachine } from '../../machines/editor.machine';

/** Reads an open record again: loaded anew when its load failed, else refreshed (edits stay; a newer version asks). */
export function readAgain(actor: ActorRefFrom<typeof editorMachine>): void {
  const { isNew, loadError } = actor.getSnapshot().context;
  if (!isNew) actor.send({ type: loadError ? 'record.reload' : 'record.refresh' });
}

/**
 * An open record changed elsewhere (api/live.ts): it is read again — a clean form shows the new
 * version, one with edits offers the usual choice (keep mine / take theirs) instead of letting a
 * later save overwrite the other change. Back online, it is read again too, as a list is
 * (use-list-page.ts): this device's copy and its "Offline" note give way to the server's, and a
 * record this device never had loads.
 */
export function useLiveRecord(actor: ActorRefFrom<typeof editorMachine>): void {
  useEffect(() => {
    const again = () => readAgain(actor);
    const stopLive = onLiveChange((change) => {
      const { resource, id, version } = actor.getSnapshot().context;
      if (change === 'reset' || (concerns(resource, change) && change.record === id && (change.version === null || change.version > (version ?? 0)))) again();
    });
    window.addEventListener('online', again);
    return () => {
      stopLive();
      window.removeEventListener('online', again);
    };
  }, [actor]);
}
