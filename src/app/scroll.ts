import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';

// Per path, not per history entry: wouter keeps no entry keys, and a path revisited through
// back/forward is the case that matters.
const positions = new Map<string, number>();

/**
 * Spec §2: each navigation starts at the top, unless a saved position exists — which is the case
 * only when going back or forward to a page seen before.
 */
export function useScrollRestoration(): void {
  const [path] = useLocation();
  const current = useRef(path);
  const traversing = useRef(false);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const onPopState = () => {
      traversing.current = true;
    };
    const onScroll = () => positions.set(current.current, window.scrollY);
    window.addEventListener('popstate', onPopState);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);

  useLayoutEffect(() => {
    if (current.current === path) return;
    current.current = path;
    const saved = traversing.current ? positions.get(path) : undefined;
    traversing.current = false;
    window.scrollTo(0, saved ?? 0);
  }, [path]);
}
