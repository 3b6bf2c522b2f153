import { useContext } from 'react';
import { ToastContext } from './toast-context.ts';
import { createToastStore, type ToastStore } from './toast-store.ts';

// One store per provider, whichever page asks for it first; it outlives the pages that use it.
const stores = new WeakMap<object, ToastStore>();

/** Shows and hides toasts; only inside a ToastProvider. */
export function useToast(): ToastStore {
  const publish = useContext(ToastContext);
  if (!publish) throw new Error('useToast must be used within a ToastProvider');
  let store = stores.get(publish);
  if (!store) {
    store = createToastStore(publish);
    stores.set(publish, store);
  }
  return store;
}
