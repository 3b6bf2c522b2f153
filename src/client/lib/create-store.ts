import { useSyncExternalStore } from 'react';

/**
 * A value kept in memory for the whole page that components follow: `get` reads it, `set` and
 * `update` change it and tell every subscriber, `use` is the hook that renders it.
 */
export interface Store<S> {
  get(): S;
  set(next: S): void;
  /** Changes some fields of an object value, as a new object. */
  update(change: Partial<S>): void;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /**
   * The hook: the value, and a new render whenever it changes. A server render gets the value too,
   * which suits what nothing prerenders (the chat panel, the console).
   */
  use(): S;
  /** Back to the initial value (a screen that was left, a test that starts). */
  reset(): void;
}

/** A store starting at `initial`. */
export function createStore<S>(initial: S): Store<S> {
  let value = initial;
  const listeners = new Set<() => void>();
  const get = () => value;
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const set = (next: S) => {
    value = next;
    for (const listener of listeners) listener();
  };
  return {
    get,
    set,
    update: (change) => set({ ...value, ...change }),
    subscribe,
    use: () => useSyncExternalStore(subscribe, get, get),
    reset: () => set(initial),
  };
}
