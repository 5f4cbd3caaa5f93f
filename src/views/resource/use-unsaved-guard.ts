import { t } from '@lingui/core/macro';
import { useEffect, useEffectEvent } from 'react';
import { useLocation } from 'wouter';
import { useConfirm } from '../../machines/feedback';

/** Marks the history entry a dirty form adds (see onBack). */
const GUARD = 'unsavedGuard';

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
 * with the app's confirm, the browser's back button too, and closing or reloading the tab gets the
 * browser's own question (the only one a browser allows there). Returns `leave(proceed)` for the
 * form's own ways out (Cancel, closing its dialog).
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

  // Back cannot be cancelled, so a dirty form stands on an extra history entry of the same URL:
  // back only leaves that entry (the router sees no change), and then the user is asked.
  const onBack = useEffectEvent((again: () => void) => {
    void ask().then((leave) => (leave ? history.back() : again()));
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
    const marked = () => (history.state as Record<string, unknown> | null)?.[GUARD];
    const mark = (on: boolean) => history.replaceState({ ...history.state, [GUARD]: on }, '', window.location.href);
    // An entry this form added before (then clean again) is reused rather than stacking another.
    const guardEntry = () => (marked() === false ? mark(true) : history.pushState({ ...history.state, [GUARD]: true }, '', window.location.href));
    let asking = false;
    const onPopState = () => {
      if (asking || marked()) return;
      asking = true;
      onBack(() => {
        asking = false;
        guardEntry();
      });
    };
    guardEntry();
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('popstate', onPopState);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState);
      // Clean again (saved, edits undone): the entry stays but guards no more. Not history.back():
      // it runs later, and could undo the navigation a save starts meanwhile.
      if (marked()) mark(false);
    };
  }, [dirty]);

  return (proceed) => {
    if (!dirty) proceed();
    else void ask().then((leave) => leave && proceed());
  };
}
