/**
 * Runs `work` in the page's next quiet moment (what a screen is rendering goes first), at the
 * latest after `withinMs`; where the page has no such notion (Safari, tests), in the next task.
 * Returns what cancels it.
 */
export function whenIdle(work: () => void, withinMs: number): () => void {
  if (typeof requestIdleCallback === 'undefined') {
    const timer = setTimeout(work, 0);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(work, { timeout: withinMs });
  return () => cancelIdleCallback(idle);
}
