import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveSession } from '../api/session';
import { SNAPSHOT_KEY, type Snapshot } from '../api/snapshot';
import { ADA } from '../api/user.test-support';
import { keepScreens } from './snapshot';

/*
 * The screen painted before the app's code (ADR 032): what is kept when the app is put away
 * (app/snapshot.ts, api/snapshot.ts), what public/snapshot.js paints from it at the next start,
 * and when that picture gives way to the app. The whole start in Chromium, where the CSP keeps the
 * style attributes of written markup and the script sets them again: tests/e2e/pwa.spec.ts.
 */

const ENTRY = '/assets/index-test.js';
const kept = (): Snapshot[] => JSON.parse(localStorage.getItem(SNAPSHOT_KEY) ?? '[]') as Snapshot[];
const hide = () => window.dispatchEvent(new Event('pagehide'));
/** A kept screen; its second stylesheet is no path of the build, and must never be written. */
const shot = (over: Partial<Snapshot> = {}): Snapshot => ({ user: ADA.id, build: ENTRY, path: '/menu', styles: ['/assets/m.css', '/x.css?"><script>'], html: '<main><p style="top: 51px;">Pizza</p></main>', ...over });

function page(html: string): HTMLElement {
  document.head.innerHTML = `<script type="module" src="${ENTRY}"></script><link rel="stylesheet" href="/assets/list-a1.css"><link rel="stylesheet" href="https://cdn.example/x.css">`;
  document.body.innerHTML = `<div id="root">${html}</div>`;
  return document.getElementById('root')!;
}

beforeEach(() => saveSession('tok-1', ADA));
afterEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('the screens kept on the device', () => {
  it('keeps the screen on view when the app is put away, for this user, build and address', () => {
    window.history.replaceState(null, '', '/websites/categories?page=2');
    keepScreens(page('<main><table><tr><td>Gastronomy</td></tr></table></main>'));
    hide();
    expect(kept()).toEqual([
      { user: ADA.id, build: ENTRY, path: '/websites/categories?page=2', styles: ['/assets/list-a1.css'], html: '<main><table><tbody><tr><td>Gastronomy</td></tr></tbody></table></main>' },
    ]);
  });

  it('never keeps a password typed, a picture only this page could show, or a screen holding a value shown once', () => {
    window.history.replaceState(null, '', '/profile');
    const root = page('<main><input type="password" value="hunter2"><input name="name" value="Pizza"><img src="blob:http://x/1"></main>');
    keepScreens(root);
    hide();
    expect(kept()[0]!.html).toBe('<main><input type="password"><input name="name" value="Pizza"><img></main>');

    root.innerHTML = '<main><div data-shown-once><code>skp_secret</code></div></main>';
    hide();
    expect(localStorage.getItem(SNAPSHOT_KEY)).toBeNull();
  });

  it('keeps the last four addresses, a long screen not at all, and nothing after sign-out', () => {
    const root = page('<main>x</main>');
    keepScreens(root);
    for (const path of ['/a', '/b', '/c', '/d', '/e']) {
      window.history.replaceState(null, '', path);
      hide();
    }
    expect(kept().map((screen) => screen.path)).toEqual(['/e', '/d', '/c', '/b']);
    window.history.replaceState(null, '', '/c');
    root.innerHTML = `<main>${'x'.repeat(400_001)}</main>`;
    hide();
    expect(kept().map((screen) => screen.path)).toEqual(['/e', '/d', '/b']);
    clearSession();
    expect(localStorage.getItem(SNAPSHOT_KEY)).toBeNull();
    hide();
    expect(localStorage.getItem(SNAPSHOT_KEY)).toBeNull();
  });
});

describe('the screen painted before the app', () => {
  const script = readFileSync('public/snapshot.js', 'utf8');
  /** Runs the script as the page's parser would, document.write included, and what it wrote. */
  function start(snapshots: Snapshot[]) {
    localStorage.setItem(SNAPSHOT_KEY, JSON.stringify(snapshots));
    window.history.replaceState(null, '', '/menu');
    const root = page('');
    let written = '';
    vi.spyOn(document, 'write').mockImplementation((html: string) => void (written += html));
    new Function(script)();
    vi.restoreAllMocks();
    return { root, written };
  }

  it('paints the kept screen, inert and hidden from assistive technology, with only the build’s stylesheets', () => {
    const { written } = start([shot()]);
    expect(written).toBe('<link rel="stylesheet" href="/assets/m.css"><div id="snapshot" inert aria-hidden="true"><main><p style="top: 51px;">Pizza</p></main></div><script src="/snapshot.js"></script>');
  });

  it('paints nothing of another user, another build or another address', () => {
    expect(start([shot({ user: 'someone-else' }), shot({ build: '/assets/index-old.js' }), shot({ path: '/other' })]).written).toBe('');
  });

  it('gives way to the app in the task of its first render, never beside it', async () => {
    const root = page('');
    root.insertAdjacentHTML('afterend', '<div id="snapshot"></div>');
    keepScreens(root);
    await Promise.resolve();
    expect(document.getElementById('snapshot')).not.toBeNull();
    root.innerHTML = '<main><p aria-busy="true">Loading…</p></main>';
    await Promise.resolve();
    expect(document.getElementById('snapshot')).toBeNull();
  });
});
