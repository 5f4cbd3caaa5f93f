import { readSession } from '../api/session';
import { keepSnapshot } from '../api/snapshot';

/** How long the screen painted early may stand over an app that has not rendered. */
const SHOWN_AT_MOST_MS = 10_000;

/** What a screen must never leave on the device: a value shown once (views/websites/shown-once.tsx). */
const NOT_KEPT = '[data-shown-once]';

/** The stylesheets the screen uses, as paths under /assets/ (the only ones public/snapshot.js adds back). */
const stylesheets = () =>
  [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => new URL(link.href).pathname).filter((path) => path.startsWith('/assets/'));

/** The screen as painted, without what a snapshot must not hold: a password typed, a picture only this page could show. */
function painted(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const field of copy.querySelectorAll('input[type="password"]')) field.removeAttribute('value');
  for (const image of copy.querySelectorAll('img[src^="blob:"]')) image.removeAttribute('src');
  return copy.innerHTML;
}

/**
 * Keeps the screen on view each time the app is put away (another app, the home screen, closed),
 * for public/snapshot.js to paint at the next start at this address (ADR 032); and takes away the
 * screen it painted once the app renders its own.
 */
export function keepScreens(root: HTMLElement): void {
  const entry = document.querySelector('script[type="module"][src]')?.getAttribute('src');
  const keep = () => {
    const { token, user } = readSession();
    if (!token || !user || !entry || !root.firstElementChild) return;
    const path = window.location.pathname + window.location.search;
    keepSnapshot({ user: user.id, build: entry, path, styles: stylesheets(), html: root.querySelector(NOT_KEPT) ? null : painted(root) });
  };
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && keep());
  window.addEventListener('pagehide', keep);

  const early = document.getElementById('snapshot');
  if (!early) return;
  // Gone in the same task as the app's first render, before anything paints again: never beside
  // the app's own screen, whose copy (a field's label, a row) it would double. Or after a while,
  // if the app never renders.
  const done = () => {
    early.remove();
    replaced.disconnect();
    clearTimeout(timeout);
  };
  const replaced = new MutationObserver(() => root.firstElementChild && done());
  replaced.observe(root, { childList: true });
  const timeout = setTimeout(done, SHOWN_AT_MOST_MS);
}
