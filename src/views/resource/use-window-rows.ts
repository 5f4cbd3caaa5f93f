import { defaultRangeExtractor, measureElement, useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';

interface WindowRowsOptions {
  count: number;
  /** A row's height (px) until it is measured. */
  estimate: (index: number) => number;
  /** The row's identity: a measured height follows its row when the rows move. */
  key: (index: number) => string;
  /** The space between rows (px). */
  gap?: number;
  /** How many rows beyond those in view are in the page, above and below (6: a text row is cheap). */
  overscan?: number;
  /** A row kept in the page wherever the page is scrolled: the one being dragged. */
  keep?: number | null;
  /** Off: the caller shows every row itself (a short list, a page being printed). */
  enabled: boolean;
}

export interface WindowRows<E extends HTMLElement> {
  /** The list element: where it starts on the page is measured from it. */
  ref: React.RefObject<E | null>;
  virtualizer: Virtualizer<Window, Element>;
  /** The rows to put in the page, each at `top` (px from the list's top), and the list's whole height. */
  rows: { index: number; key: string; top: number }[];
  height: number;
}

/**
 * A long list scrolled with the page, of which only the rows in view (and a few around them) are in
 * the page: a menu of 2,000 dishes stays as quick as one of twenty, a media library of thousands of
 * files too. Rows whose text wraps are measured as they show (`virtualizer.measureElement`); each
 * row is placed by the caller at its `top`, absolutely.
 */
export function useWindowRows<E extends HTMLElement>({ count, estimate, key, gap = 0, overscan = 6, keep = null, enabled }: WindowRowsOptions): WindowRows<E> {
  const ref = useRef<E>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    // Where the list starts moves with what shows above it (a notice, a form), inside its parent or
    // above it: the parent's size, or the page's, says when.
    const measure = () => setOffset(Math.round(element.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    if (element.parentElement) observer.observe(element.parentElement);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [enabled]);
  // Its functions change on every render by design; the caller renders them as they are.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useWindowVirtualizer<Element>({
    count: enabled ? count : 0,
    estimateSize: estimate,
    getItemKey: key,
    gap,
    overscan,
    scrollMargin: offset,
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      return keep === null || keep >= count || indexes.includes(keep) ? indexes : [...indexes, keep].toSorted((a, b) => a - b);
    },
    // A row without a size (not laid out, as in a test's DOM) keeps its estimate instead of collapsing the list.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || estimate(instance.indexFromElement(element)),
  });
  const rows = virtualizer.getVirtualItems().map((item) => ({ index: item.index, key: String(item.key), top: item.start - offset }));
  return { ref, virtualizer, rows, height: virtualizer.getTotalSize() };
}
