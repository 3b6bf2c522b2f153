import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ToastContext } from './toast-context.ts';
import type { Toast, ToastPosition } from './toast-store.ts';

// The toasts' markup and rules arrive with the pages that show toasts; until then the page carries
// only the empty live region, which must exist before a toast appears for screen readers to announce it.
const ToastList = lazy(() => import('./ToastList.tsx'));

/** Holds the toasts of the whole app, so that one survives the navigation that follows it. */
export function ToastProvider({ children, position = 'top-right' }: { children: ReactNode; position?: ToastPosition }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  return (
    <ToastContext value={setToasts}>
      {children}
      <section className={`toasts toasts--${position}`} aria-label={t('toasts.label')}>
        <ol className="toasts__list" aria-live="polite">
          {toasts.length > 0 && (
            <Suspense fallback={null}>
              <ToastList toasts={toasts} />
            </Suspense>
          )}
        </ol>
      </section>
    </ToastContext>
  );
}
