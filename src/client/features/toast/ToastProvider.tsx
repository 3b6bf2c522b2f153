import { createContext, lazy, type ReactNode, Suspense, useContext, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { createToastStore, DEFAULT_POSITION, type Toast, type ToastPosition, type ToastStore } from './toast-store.ts';

const ToastContext = createContext<ToastStore | null>(null);

// The list's markup and behaviour arrive with the first toast; until then the page carries only
// the empty live region, which must exist before a toast appears for screen readers to announce it.
const ToastList = lazy(() => import('./ToastList.tsx'));

const NONE: readonly Toast[] = [];

export function ToastProvider({
  children,
  position = DEFAULT_POSITION,
}: {
  children: ReactNode;
  position?: ToastPosition;
}) {
  const { t } = useTranslation();
  const [store] = useState(createToastStore);
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, () => NONE);
  return (
    <ToastContext value={store}>
      {children}
      <section className={`toasts toasts--${position}`} aria-label={t('toasts.label')}>
        <ol className="toasts__list" aria-live="polite">
          {toasts.length > 0 && (
            <Suspense fallback={null}>
              <ToastList toasts={toasts} store={store} />
            </Suspense>
          )}
        </ol>
        {toasts.filter((toast) => toast.isVisible).length > 1 && (
          <button type="button" className="toasts__hide-all" onClick={store.hideAll}>
            {t('toasts.hideAll')}
          </button>
        )}
      </section>
    </ToastContext>
  );
}

/** Shows and hides toasts; only inside a ToastProvider. */
export function useToast(): ToastStore {
  const store = useContext(ToastContext);
  if (!store) throw new Error('useToast must be used within a ToastProvider');
  return store;
}
