import { useSyncExternalStore } from 'react';
import type { BaseLocationHook } from 'wouter';
import { navigate } from 'wouter/use-browser-location';

/** Resolves once the screens `path` opens can render without suspending; null when they already can. */
export type WhenShowable = (path: string) => Promise<unknown> | null;

const CHANGES = ['popstate', 'pushState', 'replaceState'] as const;

/**
 * The browser's location as the app shows it: a new path once the screens it opens have loaded,
 * with the screen before left on view meanwhile, as a browser does on a link to another page.
 *
 * wouter reads the location from an external store, and React renders such an update at once: a
 * screen still loading then suspends, the screen before disappears, and when the new one is in,
 * React holds it back for its reveal throttle (300 ms after the fallback showed), however fast its
 * chunk came. Every first visit of a screen paid those 300 ms in the app's own navigation.
 *
 * `hook` is the location for wouter's Router; `useNavigating` tells whether a path is still loading.
 */
export function shownLocation(whenShowable: WhenShowable): { hook: BaseLocationHook; useNavigating: () => boolean } {
  let shown: string | null = null;
  let loading: string | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const follow = () => {
    const path = window.location.pathname;
    const ready = path === shown ? null : whenShowable(path);
    loading = ready ? path : null;
    if (!ready) shown = path;
    // A screen that fails to load is shown all the same: its error boundary says so. Only the last
    // navigation shows: one still loading when another starts is dropped.
    else
      void ready
        .catch(() => undefined)
        .then(() => {
          if (loading !== path) return;
          loading = null;
          shown = path;
          notify();
        });
    notify();
  };
  const subscribe = (listener: () => void) => {
    if (shown === null) {
      shown = window.location.pathname;
      // wouter patches pushState and replaceState to announce themselves (its use-browser-location, imported above).
      for (const change of CHANGES) window.addEventListener(change, follow);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const path = () => shown ?? window.location.pathname;
  const navigating = () => loading !== null;
  return {
    hook: () => [useSyncExternalStore(subscribe, path), navigate],
    useNavigating: () => useSyncExternalStore(subscribe, navigating),
  };
}
