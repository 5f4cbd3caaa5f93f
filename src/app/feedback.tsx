import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Toasts } from '../components/toasts';
import { confirmActor, toastActor } from '../machines/feedback';

/** Tells the toasts when the page changes: what was said about the page left goes with it. */
function useToastsFollowPage(): void {
  const [path] = useLocation();
  const shownOn = useRef(path);
  useEffect(() => {
    if (shownOn.current === path) return;
    shownOn.current = path;
    toastActor.send({ type: 'toast.navigate' });
  }, [path]);
}

/** Renders the app's toasts and confirmation dialog; mounted once, above the routes. */
export function FeedbackHost() {
  useToastsFollowPage();
  return (
    <>
      <Toasts actor={toastActor} />
      <ConfirmDialog actor={confirmActor} />
    </>
  );
}
