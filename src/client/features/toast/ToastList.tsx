import { useTranslation } from 'react-i18next';
import type { Toast, ToastStore } from './toast-store.ts';

/** The toasts themselves; their clock stops while the pointer or the keyboard focus is on one. */
export default function ToastList({ toasts, store }: { toasts: readonly Toast[]; store: ToastStore }) {
  const { t } = useTranslation();
  return (
    <>
      {toasts.map((toast) => (
        <li
          key={toast.id}
          className={`toast toast--${toast.type}${toast.isVisible ? '' : ' toast--hiding'}`}
          onMouseEnter={() => store.pause(toast.id)}
          onMouseLeave={() => store.resume(toast.id)}
          onFocus={() => store.pause(toast.id)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) store.resume(toast.id);
          }}
        >
          <div className="toast__body">
            <p className="visually-hidden">{t(`toasts.types.${toast.type}`)}</p>
            {toast.title && <p className="toast__title">{toast.title}</p>}
            <p className="toast__message">{toast.message}</p>
            {toast.actions && toast.actions.length > 0 && (
              <p className="toast__actions">
                {toast.actions.map((action) => (
                  <button
                    key={action.label}
                    type="button"
                    className={`button button--small${action.variant === 'secondary' ? ' button--secondary' : ''}`}
                    onClick={() => {
                      action.action();
                      store.hide(toast.id);
                    }}
                  >
                    {action.label}
                  </button>
                ))}
              </p>
            )}
          </div>
          <button type="button" className="toast__close" onClick={() => store.hide(toast.id)}>
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">{t('toasts.close')}</span>
          </button>
        </li>
      ))}
    </>
  );
}
