import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createStore } from './create-store.ts';

/** Renders what a store's hook gives, as the server (and the page's hydration) sees it. */
function renderedBy(use: () => unknown) {
  function Shows() {
    return <output>{JSON.stringify(use())}</output>;
  }
  return renderToString(<Shows />);
}

describe('createStore', () => {
  it('starts at its initial value and is replaced by set', () => {
    const store = createStore({ count: 0, name: 'a' });
    expect(store.get()).toEqual({ count: 0, name: 'a' });
    store.set({ count: 2, name: 'b' });
    expect(store.get()).toEqual({ count: 2, name: 'b' });
  });

  it('changes only the given parts with update, as a new object', () => {
    const store = createStore({ count: 0, name: 'a' });
    const before = store.get();
    store.update({ count: 1 });
    expect(store.get()).toEqual({ count: 1, name: 'a' });
    expect(before).toEqual({ count: 0, name: 'a' });
    expect(store.get()).not.toBe(before);
  });

  it('tells every subscriber of every change, until it unsubscribes', () => {
    const store = createStore({ count: 0 });
    const first = vi.fn();
    // Told after the change, so that what it reads is new.
    const second = vi.fn(() => expect(store.get().count).toBeGreaterThan(0));
    const stopFirst = store.subscribe(first);
    store.subscribe(second);
    store.set({ count: 1 });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    stopFirst();
    store.update({ count: 2 });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('goes back to the initial value on reset, and says so', () => {
    const initial = { items: [] as string[] };
    const store = createStore(initial);
    const listener = vi.fn();
    store.subscribe(listener);
    store.set({ items: ['x'] });
    store.reset();
    expect(store.get()).toBe(initial);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('renders the current value, on the server too', () => {
    const store = createStore({ count: 0 });
    store.set({ count: 3 });
    expect(renderedBy(store.use)).toBe('<output>{&quot;count&quot;:3}</output>');
  });
});
