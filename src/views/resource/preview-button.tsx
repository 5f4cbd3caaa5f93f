import { Trans, useLingui } from '@lingui/react/macro';
import { Eye } from 'lucide-react';
import { itemPath } from '../../api/paths';
import { requestData } from '../../api/request';
import { messages } from '../../contract/messages';
import { PreviewSchema, previewPath } from '../../contract/preview';
import type { Resource } from '../../contract/resource';
import { useOnline } from '../../db/use-sync-status';
import { toast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { useBusyAction } from './use-busy-action';

interface PreviewButtonProps {
  /** The entry as the form edits it (bound to its website). */
  resource: Resource;
  id: string;
  /** Unsaved edits: the website would show the record as saved, not as typed. */
  dirty: boolean;
}

/**
 * "Preview" on a page, post or food menu (contract/preview.ts): the website's preview page opens
 * in a new tab with a token that shows this draft for an hour. The tab is opened at the tap, so
 * no popup blocker stops it, and sent on once the server has answered.
 */
export function PreviewButton({ resource, id, dirty }: PreviewButtonProps) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const { busy, act } = useBusyAction();

  async function open() {
    if (!online) return toast.info(t`The preview opens the website, so it needs a connection.`);
    if (dirty) return toast.info(t`Save your changes first: the preview shows what is saved.`);
    const tab = window.open('', '_blank');
    let shown = false;
    await act(async () => {
      try {
        const { url } = await requestData(previewPath(itemPath(resource, id)), PreviewSchema, { method: 'POST', fallback: messages.previewFailed });
        if (!url) return toast.info(i18n._(messages.previewNoAddress));
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
          shown = true;
        }
      } finally {
        if (!shown) tab?.close();
      }
    });
  }

  return (
    <Button variant="secondary" busy={busy} onClick={() => void open()}>
      <Eye aria-hidden size={16} />
      <Trans>Preview</Trans>
    </Button>
  );
}
