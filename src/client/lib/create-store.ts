import { useSyncExternalStore } from 'react';

/**
 * A value that components follow: `get` reads it, `subscribe` hears of every change, and `use` is
 * the hook that renders it. `Server` is what the hook gives while the page is rendered on the
 * server or hydrates (what the prerendered HTML was made with), when that differs from the value.
 */
export interface ReadableStore<S, Server = S> {
  get(): S;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** The hook: the value, and a new render whenever it changes. */
  use(): S | Server;
}

/** A value kept somewhere else (a cookie): its owner calls `changed` after changing it. */
export interface ExternalStore<S, Server = S> extends ReadableStore<S, Server> {
  changed(): void;
}

/** A value kept here, replaced as a whole (`set`) or in part (`update`, for an object). */
export interface Store<S, Server = S> extends ReadableStore<S, Server> {
  set(next: S): void;
  update(change: Partial<S>): void;
  /** Back to the initial value (a screen that was left, a test that starts). */
  reset(): void;
}

export interface StoreOptions<Server> {
  /**
   * The value the prerendered HTML was made with, when it cannot know the real one (who is signed
   * in, the visitor's consent); without it, the current value (for what nothing prerenders).
   */
  serverSnapshot?: () => Server;
}

/** Follows a value that `read` reads where it is kept; the owner calls `changed` after each change. */
export function createExternalStore<S, Server = S>(
  read: () => S,
  { serverSnapshot }: StoreOptions<Server> = {},
): ExternalStore<S, Server> {
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    get: read,
    subscribe,
    use: () => useSyncExternalStore<S | Server>(subscribe, read, serverSnapshot ?? read),
    changed() {
      for (const listener of listeners) listener();
    },
  };
}

/** A value kept in memory for the whole page, starting at `initial`, that tells its subscribers of every change. */
export function createStore<S, Server = S>(initial: S, options: StoreOptions<Server> = {}): Store<S, Server> {
  let value = initial;
  const { changed, ...readable } = createExternalStore<S, Server>(() => value, options);
  const set = (next: S) => {
    value = next;
    changed();
  };
  return {
    ...readable,
    set,
    update: (change) => set({ ...value, ...change }),
    reset: () => set(initial),
  };
}
