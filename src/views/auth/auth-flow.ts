import { useEffect, useEffectEvent, useRef } from 'react';
import { useAuth } from '../../machines/auth';

type AuthStatus = ReturnType<typeof useAuth>['status'];

/**
 * Runs `effect` when the status changes to `to` while the page is shown — not when the page mounts
 * in it, so going back to a step's page does not push the user forward again.
 */
export function useStatusChange(status: AuthStatus, to: AuthStatus, effect: () => void): void {
  const previous = useRef(status);
  const run = useEffectEvent(effect);

  useEffect(() => {
    if (previous.current !== status && status === to) run();
    previous.current = status;
  }, [status, to]);
}

/**
 * One machine serves every sign-in page, and a failed step leaves its error behind in `idle`:
 * a page opened afterwards starts clean instead of showing another page's error.
 */
export function useFreshStart(): void {
  const { status, cancel } = useAuth();
  const start = useEffectEvent(() => {
    if (status === 'idle' || status === 'resetDone') cancel();
  });
  useEffect(() => start(), []);
}

/**
 * The address of a link from a mail that carries a PIN nobody asked for on this page (an
 * invitation, a reset an admin asked for): `/forgot-password?email=…&pin=mailed`.
 */
export function mailedPinEmail(): string | null {
  const params = new URLSearchParams(window.location.search);
  return params.get('pin') === 'mailed' ? params.get('email') : null;
}

/** Opened from such a link, the page starts at the PIN step for that address. */
export function useMailedPin(resume: (email: string) => void): void {
  const run = useEffectEvent(resume);
  useEffect(() => {
    const email = mailedPinEmail();
    if (email) run(email);
  }, []);
}
