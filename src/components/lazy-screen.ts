import { createElement, use, type ComponentType } from 'react';

/** A promise as React's `use` reads it: once settled, it renders at once instead of suspending. */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** `promise`, marked with its outcome as React's `use` reads it: a settled one renders without suspending. */
export function tracked<T>(promise: Promise<T>): Tracked<T> {
  const marked: Tracked<T> = promise;
  marked.status = 'pending';
  promise.then(
    (value) => Object.assign(marked, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(marked, { status: 'rejected', reason }),
  );
  return marked;
}

/** A screen that needs more than its code before it renders without suspending (the chunks of its parts, data it reads with `use`). */
export interface Readying {
  ready(): Promise<unknown>;
}

export type LazyScreen<P extends object> = ComponentType<P> & {
  /** Starts loading the screen's chunk and what it is `ready` with (once); resolves when it can render without suspending. */
  preload(): Promise<unknown>;
  /** Whether it renders now without suspending: its chunk is in. */
  loaded(): boolean;
};

/**
 * A screen in a chunk of its own that can be asked for before React renders it. Unlike
 * `React.lazy`, a screen whose chunk is already in renders at once: a first render that suspends
 * would show the fallback and then hold the real screen back for React's reveal throttle
 * (300 ms), which is longer than loading a precached chunk takes.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loading: Tracked<ComponentType<P>> | null = null;
  const preload = (): Tracked<ComponentType<P>> => {
    // What the screen readies is waited for, not required: a part that fails to load fails where it renders.
    loading ??= tracked(load().then((screen) => Promise.resolve((screen as Partial<Readying>).ready?.()).then(() => screen, () => screen)));
    return loading;
  };
  function Screen(props: P) {
    // The component is the module's own, loaded once: the same one on every render.
    return createElement(use(preload() as Promise<ComponentType<P>>), props);
  }
  return Object.assign(Screen, { preload, loaded: () => loading?.status === 'fulfilled' });
}
