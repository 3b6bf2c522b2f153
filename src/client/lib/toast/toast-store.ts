export type ToastType = 'success' | 'error' | 'warning' | 'info';
export type ToastPosition = 'top-right' | 'top-left' | 'bottom-right' | 'bottom-left' | 'top-center' | 'bottom-center';

export interface ToastAction {
  label: string;
  action: () => void;
  variant?: 'primary' | 'secondary';
}

export interface Toast {
  id: string;
  type: ToastType;
  title?: string;
  message: string;
  actions?: ToastAction[];
  autoClose: boolean;
  /** Milliseconds it stays when `autoClose` is on. */
  duration: number;
  isVisible: boolean;
  createdAt: number;
}

export type ToastInput = Pick<Toast, 'type' | 'message'> &
  Partial<Pick<Toast, 'title' | 'actions' | 'autoClose' | 'duration'>>;

export const MAX_TOASTS = 5;
export const DEFAULT_DURATION = 5000;
export const REMOVAL_DELAY = 300;

export interface ToastStore {
  /** Shows a toast and returns its id. */
  show(input: ToastInput): string;
  hide(id: string): void;
  hideAll(): void;
  /** Stops a toast's clock while the visitor reads it (hover, focus), and starts it again. */
  pause(id: string): void;
  resume(id: string): void;
}

/**
 * The toasts and their rules (at most 5, oldest dropped; auto-close after the duration; removal
 * 300 ms after hiding), handing every new list to `publish` (the provider's state). Apart from
 * React, so that the rules can be tested alone, and loaded only with the pages that show toasts.
 */
export function createToastStore(publish: (toasts: readonly Toast[]) => void): ToastStore {
  let toasts: readonly Toast[] = [];
  let next = 0;
  // The auto-close clock of each visible toast: what is left of it, and the running timer if any.
  const clocks = new Map<string, { remaining: number; startedAt: number; timer?: ReturnType<typeof setTimeout> }>();

  const emit = (changed: readonly Toast[]) => {
    toasts = changed;
    publish(changed);
  };
  const stopClock = (id: string) => {
    clearTimeout(clocks.get(id)?.timer);
    clocks.delete(id);
  };
  const startClock = (id: string, remaining: number) => {
    clocks.set(id, { remaining, startedAt: Date.now(), timer: setTimeout(() => store.hide(id), remaining) });
  };
  const remove = (ids: string[]) => emit(toasts.filter((toast) => !ids.includes(toast.id)));

  const store: ToastStore = {
    show(input) {
      const toast: Toast = {
        autoClose: true,
        duration: DEFAULT_DURATION,
        ...input,
        id: `toast-${++next}`,
        isVisible: true,
        createdAt: Date.now(),
      };
      const kept = toasts.slice(Math.max(0, toasts.length - MAX_TOASTS + 1));
      for (const dropped of toasts.slice(0, toasts.length - kept.length)) stopClock(dropped.id);
      emit([...kept, toast]);
      if (toast.autoClose) startClock(toast.id, toast.duration);
      return toast.id;
    },
    hide(id) {
      if (!toasts.some((toast) => toast.id === id && toast.isVisible)) return;
      stopClock(id);
      emit(toasts.map((toast) => (toast.id === id ? { ...toast, isVisible: false } : toast)));
      setTimeout(() => remove([id]), REMOVAL_DELAY);
    },
    hideAll() {
      const ids = toasts.map((toast) => toast.id);
      for (const id of ids) stopClock(id);
      emit(toasts.map((toast) => (toast.isVisible ? { ...toast, isVisible: false } : toast)));
      setTimeout(() => remove(ids), REMOVAL_DELAY);
    },
    pause(id) {
      const clock = clocks.get(id);
      if (!clock?.timer) return;
      clearTimeout(clock.timer);
      clocks.set(id, { remaining: clock.remaining - (Date.now() - clock.startedAt), startedAt: 0 });
    },
    resume(id) {
      const clock = clocks.get(id);
      if (clock && !clock.timer) startClock(id, clock.remaining);
    },
  };
  return store;
}
