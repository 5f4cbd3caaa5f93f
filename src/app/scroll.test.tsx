import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { useScrollRestoration } from './scroll';

function Probe() {
  useScrollRestoration();
  return null;
}

const scrollTo = vi.fn();

function scrollPageTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

/** Back/forward as the browser does it: the URL changes, then popstate fires. */
function traverse(path: string) {
  // The unpatched replaceState of the History prototype: wouter's patched one would announce a push.
  History.prototype.replaceState.call(window.history, null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', scrollTo);
  scrollTo.mockReset();
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  scrollPageTo(0);
});

describe('useScrollRestoration', () => {
  it('starts every new page at the top', () => {
    render(<Probe />);
    scrollPageTo(600);
    act(() => navigate('/users'));

    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    expect(window.history.scrollRestoration).toBe('manual');
  });

  it('starts a page seen before at the top too when it is opened anew rather than gone back to', () => {
    render(<Probe />);
    act(() => navigate('/users'));
    scrollPageTo(300);
    act(() => navigate('/'));
    act(() => navigate('/users'));

    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('restores the saved position when going back, and the top when none was saved', () => {
    render(<Probe />);
    scrollPageTo(600);
    act(() => navigate('/users'));
    scrollPageTo(40);

    act(() => traverse('/'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 600);

    act(() => traverse('/never-seen'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });
});
