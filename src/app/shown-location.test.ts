import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { shownLocation } from './shown-location';

/** A screen's chunk on its way, finished by the test. */
function loading() {
  let finish!: () => void;
  const promise = new Promise<void>((resolve) => (finish = resolve));
  return { promise, finish: () => act(async () => finish()) };
}

beforeEach(() => history.replaceState(null, '', '/start'));

describe('shownLocation', () => {
  it('shows a path whose screens are in at once', () => {
    const shown = shownLocation(() => null);
    const { result } = renderHook(() => [shown.hook()[0], shown.useNavigating()]);
    act(() => history.pushState(null, '', '/users'));
    expect(result.current).toEqual(['/users', false]);
  });

  it('keeps the screen before on view, busy, until the next one has loaded', async () => {
    const chunk = loading();
    const shown = shownLocation((path) => (path === '/users' ? chunk.promise : null));
    const { result } = renderHook(() => [shown.hook()[0], shown.useNavigating()]);

    act(() => history.pushState(null, '', '/users'));
    expect(result.current).toEqual(['/start', true]);
    await chunk.finish();
    expect(result.current).toEqual(['/users', false]);
  });

  it('shows only the last of two navigations, and none when the person went back meanwhile', async () => {
    const chunks = { '/users': loading(), '/partners': loading() };
    const shown = shownLocation((path) => chunks[path as keyof typeof chunks]?.promise ?? null);
    const { result } = renderHook(() => [shown.hook()[0], shown.useNavigating()]);

    act(() => history.pushState(null, '', '/users'));
    act(() => history.pushState(null, '', '/partners'));
    await chunks['/users'].finish();
    expect(result.current).toEqual(['/start', true]);
    await chunks['/partners'].finish();
    expect(result.current).toEqual(['/partners', false]);

    const again = loading();
    chunks['/users'] = again;
    act(() => history.pushState(null, '', '/users'));
    const back = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    await act(async () => {
      history.back();
      await back;
    });
    expect(result.current).toEqual(['/partners', false]);
    await again.finish();
    expect(result.current).toEqual(['/partners', false]);
  });

  it('shows a screen whose chunk failed to load, for its error to be seen there', async () => {
    const shown = shownLocation(() => Promise.reject(new Error('offline')));
    const { result } = renderHook(() => shown.hook()[0]);
    await act(async () => history.pushState(null, '', '/users'));
    expect(result.current).toBe('/users');
  });
});
