import { t } from '@lingui/core/macro';
import { useEffect, useEffectEvent } from 'react';
import { useLocation } from 'wouter';
import { useConfirm } from '../../app/feedback';

/** A click that would follow a link inside this app, as the browser or wouter would handle it. */
function inAppLink(event: MouseEvent): URL | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement) || anchor.target === '_blank' || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, window.location.href);
  return url.origin === window.location.origin ? url : null;
}

/**
 * The unsaved-changes guard of forms (spec §2): while `dirty`, a link elsewhere in the app asks first
 * with the app's confirm, and closing or reloading the tab gets the browser's own question (the only
 * one a browser allows there). Returns `leave(proceed)` for the form's own ways out (Cancel, closing
 * its dialog). The browser's back button is not intercepted.
 */
export function useUnsavedGuard(dirty: boolean): (proceed: () => void) => void {
  const { confirm } = useConfirm();
  const [, navigate] = useLocation();

  const ask = () =>
    confirm({
      type: 'warning',
      title: t`Unsaved changes`,
      message: t`You have unsaved changes. Leave without saving them?`,
      confirmText: t`Leave`,
      cancelText: t`Stay`,
    });

  const onLink = useEffectEvent((url: URL) => {
    void ask().then((leave) => leave && navigate(url.pathname + url.search + url.hash));
  });

  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      const url = inAppLink(event);
      if (!url) return;
      // Captured before wouter's own handler, which leaves a prevented click alone.
      event.preventDefault();
      onLink(url);
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);

  return (proceed) => {
    if (!dirty) proceed();
    else void ask().then((leave) => leave && proceed());
  };
}
