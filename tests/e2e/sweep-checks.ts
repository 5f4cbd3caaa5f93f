import type { Page, Request } from '@playwright/test';
import { EVENTS_PATH } from '../../src/contract/live';

/** What the layout sweep (sweep.spec.ts) looks for on every screen. */
export type FindingKind = 'broken word' | 'overflow' | 'page too wide' | 'small tap target';

export interface Finding {
  kind: FindingKind;
  /** The element's own words (or its label), shortened. */
  text: string;
  /** Where it is: the element and its nearest named ancestors. */
  where: string;
  detail: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A screen's kind: its path with the ids taken out, so one row of a list stands for all of them. */
export const screenKind = (path: string) => path.replace(UUID, ':id');

/** The app's own screens a page links to: same origin, no API files, no fragments. */
export async function screenLinks(page: Page): Promise<string[]> {
  const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((link) => (link as HTMLAnchorElement).href));
  const origin = new URL(page.url()).origin;
  return hrefs
    .map((href) => new URL(href))
    .filter((url) => url.origin === origin && !url.pathname.startsWith('/api/'))
    .map((url) => `${url.pathname}${url.search}`);
}

// The live updates' stream stays open as long as the app does: it is no read to wait for.
const isRead = (request: Request) => ['fetch', 'xhr'].includes(request.resourceType()) && new URL(request.url()).pathname !== EVENTS_PATH;

/**
 * Counts the page's reads in flight, so a screen is looked at once its data is there: none in
 * flight for 50 ms. A read that follows another (a list's options after its rows) started within
 * 1 ms of the one before in every screen the sweeps saw; the next gap was the next screen's, 150 ms on.
 */
export function networkQuiet(page: Page) {
  let inFlight = 0;
  const done = () => (inFlight = Math.max(0, inFlight - 1));
  page.on('request', (request) => {
    if (isRead(request)) inFlight += 1;
  });
  page.on('requestfinished', (request) => isRead(request) && done());
  page.on('requestfailed', (request) => isRead(request) && done());
  return async () => {
    const until = Date.now() + 10_000;
    let quietSince = Date.now();
    while (Date.now() < until) {
      if (inFlight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 50) return;
      await page.waitForTimeout(10);
    }
  };
}

/**
 * Waits until the screen shows its heading and nothing in it says it is still loading, then for two
 * frames. After the app's own navigation the screen before stays on view, its main region busy,
 * until the next one has loaded (src/app/shown-location.ts).
 */
export async function settled(page: Page, quiet: () => Promise<void>): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const main = document.querySelector('main');
        // The main region itself is busy while the next screen loads, the one before still on view.
        return Boolean(main && !main.matches('[aria-busy="true"]') && [...main.querySelectorAll('h1')].some((heading) => heading.checkVisibility()) && !main.querySelector('[aria-busy="true"]'));
      },
      null,
      { timeout: 10_000 },
    )
    // A screen that never settles is still looked at: what it shows then is what a person sees.
    .catch(() => undefined);
  await quiet();
  await frames(page);
}

/**
 * Two animation frames (the layout after a resize, its observers and what they changed), then the
 * transitions they started: the phone's sidebar stays visible for its slide-out after a resize.
 */
export const frames = (page: Page) =>
  page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });

/**
 * Runs in the page: every visible word that breaks inside itself, every box whose content sticks
 * out of it or out of the viewport, a page wider than the window, and (`touch`) every tap target
 * under 44 px tall.
 *
 * A word may break only where a person would: after a hyphen, a dash, a slash or a soft hyphen.
 * Long words are not excused: their box must let them wrap there, or be wide enough. Links inside
 * a sentence are not tap targets of their own (WCAG 2.5.8's inline exception); a checkbox's or
 * radio's target is its label.
 */
export function findingsInPage(touch: boolean): Finding[] {
  const findings: Finding[] = [];
  const viewport = document.documentElement.clientWidth;
  // Runs in the page (page.evaluate): everything it calls is defined inside it.
  // oxlint-disable-next-line unicorn/consistent-function-scoping
  const short = (text: string) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > 70 ? `${line.slice(0, 67)}…` : line;
  };
  const name = (element: Element) => {
    const label = element.getAttribute('aria-label');
    const classes = [...element.classList].map((entry) => entry.replace(/^_?([a-zA-Z]+)_.*$/, '$1')).slice(0, 2);
    return `${element.tagName.toLowerCase()}${classes.length ? `.${classes.join('.')}` : ''}${label ? `[${short(label)}]` : ''}`;
  };
  const where = (element: Element) => {
    const path: string[] = [];
    for (let at: Element | null = element; at && at !== document.body && path.length < 4; at = at.parentElement) path.unshift(name(at));
    return path.join(' > ');
  };
  const textOf = (element: Element) =>
    short((element as HTMLElement).innerText || element.getAttribute('aria-label') || (element as HTMLInputElement).value || (element as HTMLInputElement).placeholder || '');

  // Hidden from sight although in the layout: visually-hidden text, closed panels, the off-canvas sidebar.
  const hiddenCache = new Map<Element, boolean>();
  const hidden = (element: Element): boolean => {
    const known = hiddenCache.get(element);
    if (known !== undefined) return known;
    let result: boolean;
    if (!element.checkVisibility({ visibilityProperty: true })) result = true;
    else {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const clipped = style.clip !== 'auto' || style.clipPath !== 'none' || (style.overflow !== 'visible' && (box.width <= 1 || box.height <= 1));
      result = clipped || (element.parentElement ? hidden(element.parentElement) : false);
    }
    hiddenCache.set(element, result);
    return result;
  };

  // Broken words: a word's pieces between break opportunities each sit on one line.
  // oxlint-disable-next-line unicorn/consistent-function-scoping
  const lineCount = (rects: DOMRect[]) => {
    const tops: number[] = [];
    for (const rect of rects.filter((entry) => entry.width > 0 && entry.height > 0)) {
      if (!tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top);
    }
    return tops.length;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const reported = new Set<Element>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    const parent = node.parentElement;
    if (!text.trim() || !parent || parent.closest('script, style, textarea, select, noscript') || hidden(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (lineCount([...range.getClientRects()]) <= 1) continue;
    for (const piece of text.matchAll(/[^\s‐‑–—/\u00AD\u200B-]+[‐‑–—/\u00AD\u200B-]?/g)) {
      range.setStart(node, piece.index);
      range.setEnd(node, piece.index + piece[0].length);
      if (lineCount([...range.getClientRects()]) <= 1 || reported.has(parent)) continue;
      reported.add(parent);
      findings.push({ kind: 'broken word', text: piece[0], where: where(parent), detail: short(text) });
    }
  }

  // Overflow: content wider than a box that shows it (the innermost such box), or a box out of the window.
  const overflowing: Element[] = [];
  const outside: Element[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    if (element instanceof SVGElement || hidden(element)) continue;
    const style = getComputedStyle(element);
    if (style.display === 'inline' || style.display === 'contents' || style.position === 'fixed') continue;
    if (style.overflowX === 'visible' && element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1) overflowing.push(element);
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.right > viewport + 1 || box.left < -1)) {
      let scroller = element.parentElement;
      while (scroller && scroller !== document.body && getComputedStyle(scroller).overflowX === 'visible') scroller = scroller.parentElement;
      if (!scroller || scroller === document.body) outside.push(element);
    }
  }
  for (const element of overflowing) {
    if (overflowing.some((other) => other !== element && element.contains(other))) continue;
    findings.push({ kind: 'overflow', text: textOf(element), where: where(element), detail: `content ${element.scrollWidth} px in a box of ${element.clientWidth} px` });
  }
  for (const element of outside) {
    if (element.parentElement && outside.includes(element.parentElement)) continue;
    const box = element.getBoundingClientRect();
    findings.push({ kind: 'overflow', text: textOf(element), where: where(element), detail: `from ${Math.round(box.left)} to ${Math.round(box.right)} px in a ${viewport} px window` });
  }
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > viewport) findings.push({ kind: 'page too wide', text: '', where: 'html', detail: `${pageWidth} px in a ${viewport} px window` });

  if (!touch) return findings;
  const targets = document.body.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="switch"], [role="tab"]');
  for (const element of targets) {
    if (hidden(element)) continue;
    const choice = element instanceof HTMLInputElement && ['checkbox', 'radio'].includes(element.type);
    const target = choice ? (element.closest('label') ?? element) : element;
    if (target !== element && hidden(target)) continue;
    if (element instanceof HTMLAnchorElement && getComputedStyle(element).display === 'inline') {
      const sentence = element.parentElement?.textContent?.replace(element.textContent ?? '', '').trim() ?? '';
      if (/\p{L}{2,}/u.test(sentence)) continue;
    }
    const height = target.getBoundingClientRect().height;
    if (height < 43.5) findings.push({ kind: 'small tap target', text: textOf(target), where: where(target), detail: `${Math.round(height)} px tall` });
  }
  return findings;
}
