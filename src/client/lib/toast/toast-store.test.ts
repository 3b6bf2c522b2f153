import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, DEFAULT_DURATION, MAX_TOASTS, REMOVAL_DELAY, type Toast } from './toast-store.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A store and what it last published, as the provider would hold it. */
function setUp() {
  let published: readonly Toast[] = [];
  const publish = vi.fn((toasts: readonly Toast[]) => {
    published = toasts;
  });
  const store = createToastStore(publish);
  return { store, publish, list: () => published, messages: () => published.map((toast) => toast.message) };
}

describe('toast store', () => {
  it('adds a visible toast with the defaults of the specification', () => {
    const { store, list } = setUp();
    vi.setSystemTime(1_000);
    const id = store.show({ type: 'info', message: 'Hello' });
    expect(list()).toEqual([
      { id, type: 'info', message: 'Hello', autoClose: true, duration: 5000, isVisible: true, createdAt: 1_000 },
    ]);
  });

  it('keeps title and actions', () => {
    const { store, list } = setUp();
    const action = () => {};
    store.show({
      type: 'warning',
      title: 'Careful',
      message: 'm',
      actions: [{ label: 'Undo', action, variant: 'primary' }],
    });
    expect(list()[0]).toMatchObject({ title: 'Careful', actions: [{ label: 'Undo', action }] });
  });

  it('hides a toast after its duration and removes it 300 ms later', () => {
    const { store, list } = setUp();
    store.show({ type: 'success', message: 'Saved' });
    vi.advanceTimersByTime(DEFAULT_DURATION - 1);
    expect(list()[0]?.isVisible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(list()[0]?.isVisible).toBe(false);
    vi.advanceTimersByTime(REMOVAL_DELAY - 1);
    expect(list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(list()).toEqual([]);
  });

  it('honours its own duration, and stays when auto-close is off', () => {
    const { store, messages } = setUp();
    store.show({ type: 'info', message: 'quick', duration: 1000 });
    store.show({ type: 'error', message: 'stays', autoClose: false });
    vi.advanceTimersByTime(1000 + REMOVAL_DELAY);
    expect(messages()).toEqual(['stays']);
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['stays']);
  });

  it('hides on close, once', () => {
    const { store, list } = setUp();
    const id = store.show({ type: 'info', message: 'a', autoClose: false });
    store.hide(id);
    store.hide(id);
    expect(list()[0]?.isVisible).toBe(false);
    vi.advanceTimersByTime(REMOVAL_DELAY);
    expect(list()).toEqual([]);
  });

  it('shows at most 5, dropping the oldest', () => {
    const { store, messages } = setUp();
    for (let n = 1; n <= 7; n++) store.show({ type: 'info', message: `${n}` });
    expect(MAX_TOASTS).toBe(5);
    expect(messages()).toEqual(['3', '4', '5', '6', '7']);
  });

  it('hides all, then clears the list 300 ms later', () => {
    const { store, list } = setUp();
    store.show({ type: 'info', message: 'a' });
    store.show({ type: 'error', message: 'b', autoClose: false });
    store.hideAll();
    expect(list().map((toast) => toast.isVisible)).toEqual([false, false]);
    vi.advanceTimersByTime(REMOVAL_DELAY);
    expect(list()).toEqual([]);
  });

  it('stops the clock while paused and goes on with what was left', () => {
    const { store, list } = setUp();
    const id = store.show({ type: 'info', message: 'read me', duration: 1000 });
    vi.advanceTimersByTime(600);
    store.pause(id);
    vi.advanceTimersByTime(10_000);
    expect(list()[0]?.isVisible).toBe(true);
    store.resume(id);
    vi.advanceTimersByTime(399);
    expect(list()[0]?.isVisible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(list()[0]?.isVisible).toBe(false);
  });

  it('publishes every change to the provider', () => {
    const { store, publish } = setUp();
    const id = store.show({ type: 'info', message: 'a' });
    store.hide(id);
    vi.advanceTimersByTime(REMOVAL_DELAY);
    expect(publish.mock.calls.map(([toasts]) => toasts.map((toast) => toast.isVisible))).toEqual([[true], [false], []]);
  });
});
