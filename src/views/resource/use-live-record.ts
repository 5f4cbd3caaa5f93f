import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { onLiveChange } from '../../api/live';
import { concerns } from '../../contract/live';
import type { editorMachine } from '../../machines/editor.machine';

/**
 * An open record changed elsewhere (api/live.ts): it is read again — a clean form shows the new
 * version, one with edits offers the usual choice (keep mine / take theirs) instead of letting a
 * later save overwrite the other change.
 */
export function useLiveRecord(actor: ActorRefFrom<typeof editorMachine>): void {
  useEffect(
    () =>
      onLiveChange((change) => {
        const { resource, id, isNew, version } = actor.getSnapshot().context;
        if (isNew) return;
        const ours = change === 'reset' || (concerns(resource, change) && change.record === id && (change.version === null || change.version > (version ?? 0)));
        if (ours) actor.send({ type: 'record.refresh' });
      }),
    [actor],
  );
}
