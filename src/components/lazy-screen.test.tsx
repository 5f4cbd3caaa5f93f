import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyScreen } from './lazy-screen';

function Page() {
  return <h1>Menu</h1>;
}

describe('lazyScreen', () => {
  it('renders in its first render once preloaded, without a fallback', async () => {
    const Screen = lazyScreen(async () => Page);
    expect(Screen.loaded()).toBe(false);
    await Screen.preload();
    expect(Screen.loaded()).toBe(true);
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'Menu' })).toBeDefined();
  });

  it('is loaded only once what its page is ready with is in too', async () => {
    let finish!: () => void;
    const parts = new Promise<void>((resolve) => (finish = resolve));
    const Screen = lazyScreen(async () => Object.assign(() => <h1>Menu</h1>, { ready: () => parts }));
    const preloaded = Screen.preload();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Screen.loaded()).toBe(false);
    finish();
    await preloaded;
    expect(Screen.loaded()).toBe(true);
  });

  it('is loaded when a part fails to load: the part fails where it renders', async () => {
    const Screen = lazyScreen(async () => Object.assign(() => <h1>Posts</h1>, { ready: () => Promise.reject(new Error('offline')) }));
    await Screen.preload();
    expect(Screen.loaded()).toBe(true);
  });
});
